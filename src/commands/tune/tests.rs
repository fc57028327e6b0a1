//! The tuning requests against real files in a temporary folder.

use super::*;
use std::net::{Ipv4Addr, SocketAddr};

const ADDR: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 8419);

const FILE: &str = "// Two springs.\r\n[\r\n    (\r\n        name: \"drop\", // the card\r\n        property: \"translateY\",\r\n        motion: Spring(from: -240, to: 0.0, stiffness: 300, damping: 20),\r\n    ),\r\n    (name: \"press\", property: \"scale\", motion: Spring(from: 1, to: 0.94, perceptual_duration: 0.18)),\r\n]\r\n";

/// Request headers, name and value.
type Headers = Vec<(String, String)>;

struct Project {
    _dir: tempfile::TempDir,
    file: PathBuf,
    name: String,
    tuner: Tuner,
}

fn project() -> Project {
    let dir = tempfile::tempdir().unwrap();
    let curves = dir.path().join("curves");
    std::fs::create_dir(&curves).unwrap();
    let file = curves.join("springs.ron");
    std::fs::write(&file, FILE).unwrap();
    std::fs::write(dir.path().join("other.ron"), FILE).unwrap();
    let options = BakeOptions {
        inputs: vec![curves],
        out: dir.path().join("out"),
        ..BakeOptions::default()
    };
    Project {
        name: file.display().to_string(),
        file,
        _dir: dir,
        tuner: Tuner::new(options, None).unwrap(),
    }
}

impl Project {
    fn headers(&self) -> Vec<(String, String)> {
        vec![
            ("Host".into(), "127.0.0.1:8419".into()),
            ("Origin".into(), "http://127.0.0.1:8419".into()),
            (SECRET_HEADER.into(), self.tuner.secret.clone()),
        ]
    }

    fn ask(&self, what: &str, body: &Value) -> Result<Value, Refusal> {
        self.ask_with(what, &self.headers(), body.to_string().as_bytes())
    }

    fn ask_with(
        &self,
        what: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Result<Value, Refusal> {
        self.tuner
            .answer(what, "POST", headers, &mut &body[..], ADDR)
    }

    fn text(&self) -> String {
        std::fs::read_to_string(&self.file).unwrap()
    }

    fn hash(&self) -> String {
        let list = self.ask("motions", &json!({})).unwrap();
        list["motions"]["drop"]["hash"].as_str().unwrap().to_owned()
    }
}

#[test]
fn the_motions_list_their_parameters_as_written() {
    let p = project();
    let list = p.ask("motions", &json!({})).unwrap();
    let drop = &list["motions"]["drop"];
    assert_eq!(drop["file"], p.name.as_str());
    let keys: Vec<_> = (drop["params"].as_array().unwrap().iter())
        .map(|p| {
            (
                p["key"].as_str().unwrap(),
                p["name"].as_str().unwrap(),
                p["text"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("motion.from", "from", "-240"),
            ("motion.to", "to", "0.0"),
            ("motion.stiffness", "stiffness", "300"),
            ("motion.damping", "damping", "20"),
        ]
    );
    assert_eq!(
        list["motions"]["press"]["params"][2]["key"],
        "motion.perceptual_duration"
    );
    // Its bounce, left out of the file, at its default and without text.
    let bounce = &list["motions"]["press"]["params"][3];
    assert_eq!(
        (&bounce["key"], &bounce["value"], &bounce["text"]),
        (&json!("motion.bounce"), &json!(0.0), &json!(""))
    );
}

#[test]
fn a_bounce_left_out_is_written_after_its_perceptual_duration_once_set() {
    let p = project();
    let save = |bounce: f64| {
        p.ask(
            "save",
            &json!({"file": p.name, "motion": "press", "hash": p.hash(),
                "values": {"motion.perceptual_duration": 0.18, "motion.bounce": bounce}}),
        )
    };
    // At its default, nothing is written.
    save(0.0).unwrap();
    assert_eq!(p.text(), FILE);
    save(0.25).unwrap();
    assert_eq!(
        p.text(),
        FILE.replace(
            "perceptual_duration: 0.18)",
            "perceptual_duration: 0.18, bounce: 0.25)"
        )
    );
    // Now written, it is a number like the others: changed in place.
    save(0.3).unwrap();
    assert_eq!(
        p.text(),
        FILE.replace(
            "perceptual_duration: 0.18)",
            "perceptual_duration: 0.18, bounce: 0.3)"
        )
    );
    // A spring written with stiffness and damping has no bounce to add.
    let refused = p.ask(
        "save",
        &json!({"file": p.name, "motion": "drop", "hash": p.hash(),
            "values": {"motion.bounce": 0.2}}),
    );
    assert_eq!(refused.unwrap_err().status, 400);
}

#[test]
fn a_bake_with_new_values_changes_the_card_and_figures_but_no_file() {
    let p = project();
    let before = p
        .ask("bake", &json!({"file": p.name, "motion": "drop"}))
        .unwrap();
    let after = p
        .ask(
            "bake",
            &json!({"file": p.name, "motion": "drop", "values": {"motion.damping": 8}}),
        )
        .unwrap();
    let fraction = |v: &Value| {
        v["figures"]["tracks"][0]["overshoot_fraction"]
            .as_f64()
            .unwrap()
    };
    assert!(fraction(&after) > fraction(&before) + 0.1, "{after}");
    assert!(after["card"].as_str().unwrap().contains("<td>8</td>"));
    assert!(after["css"].as_str().unwrap().contains("@keyframes drop"));
    assert_eq!(p.text(), FILE);
}

#[test]
fn a_save_changes_those_numbers_only() {
    let p = project();
    let hash = p.hash();
    let answer = p
        .ask(
            "save",
            &json!({"file": p.name, "motion": "drop", "hash": hash,
                "values": {"motion.stiffness": 412.5, "motion.damping": 20, "motion.to": 0}}),
        )
        .unwrap();
    assert_eq!(p.text(), FILE.replace("stiffness: 300", "stiffness: 412.5"));
    assert_eq!(answer["hash"], p.hash());
    // The old hash is stale now: a second save from the same page state is refused.
    let again = p.ask(
        "save",
        &json!({"file": p.name, "motion": "drop", "hash": hash, "values": {"motion.damping": 9}}),
    );
    assert_eq!(again.unwrap_err().status, 409);
    assert_eq!(p.text(), FILE.replace("stiffness: 300", "stiffness: 412.5"));
}

#[test]
fn refused_requests_leave_the_file_untouched() {
    let p = project();
    let hash = p.hash();
    let save =
        json!({"file": p.name, "motion": "drop", "hash": hash, "values": {"motion.damping": 9}});
    let body = save.to_string();
    let without = |name: &str| -> Vec<(String, String)> {
        p.headers().into_iter().filter(|(k, _)| k != name).collect()
    };
    let with = |name: &str, value: &str| -> Vec<(String, String)> {
        let mut h = without(name);
        h.push((name.into(), value.into()));
        h
    };
    let cases: Vec<(&str, Headers, Vec<u8>, u16)> = vec![
        (
            "no secret",
            without(SECRET_HEADER),
            body.clone().into(),
            403,
        ),
        (
            "wrong secret",
            with(SECRET_HEADER, "00"),
            body.clone().into(),
            403,
        ),
        (
            "other origin",
            with("Origin", "http://evil.example"),
            body.clone().into(),
            403,
        ),
        (
            "other host",
            with("Host", "evil.example:8419"),
            body.clone().into(),
            403,
        ),
        ("no host", without("Host"), body.clone().into(), 403),
        ("malformed", p.headers(), b"{\"file\": ".to_vec(), 400),
        ("too large", p.headers(), vec![b' '; MAX_BODY + 1], 413),
        (
            "outside the inputs",
            p.headers(),
            body.replace("curves/springs.ron", "other.ron").into(),
            403,
        ),
        (
            "unknown parameter",
            p.headers(),
            body.replace("motion.damping", "fps").into(),
            400,
        ),
        (
            "refused by the engine",
            p.headers(),
            body.replace("\"motion.damping\":9", "\"motion.stiffness\":-5")
                .into(),
            422,
        ),
        (
            "unknown motion",
            p.headers(),
            body.replace("\"drop\"", "\"nope\"").into(),
            404,
        ),
    ];
    for (what, headers, body, status) in cases {
        let refused = p.ask_with("save", &headers, &body).unwrap_err();
        assert_eq!(refused.status, status, "{what}: {}", refused.reason);
        assert!(!refused.reason.is_empty());
        assert_eq!(p.text(), FILE, "{what}");
    }
    let get = p
        .tuner
        .answer("save", "GET", &p.headers(), &mut &b""[..], ADDR);
    assert_eq!(get.unwrap_err().status, 405);
    // A file changed on disk since the page read it.
    std::fs::write(&p.file, FILE.replace("// Two", "// 2")).unwrap();
    let stale = p.ask("save", &save).unwrap_err();
    assert_eq!(stale.status, 409, "{}", stale.reason);
    assert!(stale.reason.contains("changed on disk"));
    assert_eq!(p.text(), FILE.replace("// Two", "// 2"));
}

#[test]
fn the_served_page_carries_the_secret() {
    let p = project();
    let page = p
        .tuner
        .page_with_secret(b"<!doctype html>\n<html><head>\n<title>x</title>");
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains(&format!(
        "<head>\n<meta name=\"curvebake-tune\" content=\"{}\">\n<script src=\"/_curvebake/tune/page.js\" defer></script>\n<title>",
        p.tuner.secret.as_str()
    )));
    assert_eq!(p.tuner.secret.as_str().len(), 32);
    assert_ne!(p.tuner.secret.as_str(), project().tuner.secret.as_str());
}
