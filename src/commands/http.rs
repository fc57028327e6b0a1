//! A small HTTP/1.1 server for the loopback interface: what `watch --serve` needs and no more.
//!
//! Every connection is read and answered on a thread of its own, from the moment it is
//! accepted: no pool and no queue between accepting a connection and answering it, so a
//! request never waits on another connection. (tiny_http, used before, handed each
//! connection to a pool that could leave one queued behind browsers' idle keep-alive
//! connections, its requests never answered: two of a hundred stylesheets of a page, in one
//! load of three.)
//!
//! A connection stays open for the next request (keep-alive) until the client closes it, asks
//! to (`Connection: close`, or HTTP/1.0), sends nothing for [`IDLE`], or sends something this
//! server does not read (then it is answered, with the reason, and closed). Bodies are read by
//! their `Content-Length`, at most [`Limits::body`] bytes of them; `Transfer-Encoding` is
//! refused (501). Every answer states its `Content-Length`. Writing an answer gives up after
//! [`WRITE_TIMEOUT`] without progress, so a client that stops reading holds only its own
//! connection. At most [`MAX_CONNECTIONS`] are open at once; one more is answered `503` and
//! closed.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an open connection may stay silent, before or inside a request, before it is
/// closed: long enough for a page's next request, short enough that idle browsers' connections
/// do not pile up.
pub const IDLE: Duration = Duration::from_secs(20);

/// How long writing an answer may make no progress before the connection is closed.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(20);

/// Connections open at once: far more than a browser opens to one server (six).
pub const MAX_CONNECTIONS: usize = 256;

/// Largest request line and headers read, together.
const MAX_HEAD: u64 = 16 * 1024;

/// How long a request (its line, headers and body) may take to arrive once it has begun: a
/// client that trickles one (a header line now and then, each within [`IDLE`]) would
/// otherwise hold its connection for hours, and [`MAX_CONNECTIONS`] of them the server.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

/// What a request may carry.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest body read; of a longer one, this many bytes and one more are handed on (so
    /// the handler can tell it is too long), and the connection is closed after the answer.
    pub body: usize,
    /// How long a request may take to arrive once begun ([`REQUEST_DEADLINE`]).
    pub deadline: Duration,
}

/// A request as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, ... as sent.
    pub method: String,
    /// The request target, as sent (`/css/card.css?g=3`).
    pub target: String,
    /// The headers, name and value, in order.
    pub headers: Vec<(String, String)>,
    /// The body (see [`Limits::body`]).
    pub body: Vec<u8>,
}

impl Request {
    /// The value of the first header named `name` (in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        (self.headers.iter())
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What an answer carries.
#[derive(Debug)]
pub enum Body {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// A file, sent as read, of the length its metadata gave when it was opened.
    File(std::fs::File, u64),
}

/// An answer: status, headers (besides `Content-Length` and `Connection`, which the server
/// writes) and body.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Header names and values.
    pub headers: Vec<(&'static str, String)>,
    /// The body (not sent to `HEAD`, but its length is stated).
    pub body: Body,
}

impl Response {
    /// An answer of `status` with `body` of `content_type`.
    pub fn bytes(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Self {
            status,
            headers: vec![("Content-Type", content_type.to_owned())],
            body: Body::Bytes(body.into()),
        }
    }

    /// The file `file` (opened) of `content_type`, or `None` when its length cannot be read.
    pub fn file(file: std::fs::File, content_type: &str) -> Option<Self> {
        let len = file.metadata().ok()?.len();
        Some(Self {
            status: 200,
            headers: vec![("Content-Type", content_type.to_owned())],
            body: Body::File(file, len),
        })
    }

    /// This answer with one more header.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    fn len(&self) -> u64 {
        match &self.body {
            Body::Bytes(bytes) => bytes.len() as u64,
            Body::File(_, len) => *len,
        }
    }
}

/// Answers requests; called on the connection's thread.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// A running server; dropping it stops accepting (open connections finish on their own).
pub struct HttpServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accepting: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl HttpServer {
    /// Answers the connections of `listener` with `handler`, each on a thread of its own.
    pub fn start(listener: TcpListener, limits: Limits, handler: Arc<Handler>) -> io::Result<Self> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::new(AtomicUsize::new(0));
        let accepting = {
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("curvebake-accept".into())
                .spawn(move || accept(&listener, &stop, &open, limits, &handler))?
        };
        Ok(Self {
            addr,
            stop,
            accepting: Some(accepting),
        })
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag. Without that connection it would
        // wait on: it is left to end with the process rather than waited for.
        let woken = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1)).is_ok();
        if let Some(thread) = self.accepting.take().filter(|_| woken) {
            let _ = thread.join();
        }
    }
}

/// Counts an open connection for as long as it lives.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts connections until `stop`, each handed at once to a thread of its own.
fn accept(
    listener: &TcpListener,
    stop: &AtomicBool,
    open: &Arc<AtomicUsize>,
    limits: Limits,
    handler: &Arc<Handler>,
) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of descriptors or a connection reset before it was accepted: the next
            // accept may work, after a pause that keeps this loop from spinning.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let already = open.fetch_add(1, Ordering::SeqCst);
        let count = Open(Arc::clone(open));
        if already >= MAX_CONNECTIONS {
            let busy = Response::bytes(503, "text/plain; charset=utf-8", "too many connections\n");
            let _ = prepare(&stream).and_then(|()| send(&stream, &busy, false, false));
            let _ = stream.shutdown(Shutdown::Both);
            continue;
        }
        let handler = Arc::clone(handler);
        let spawned = std::thread::Builder::new()
            .name("curvebake-connection".into())
            .spawn(move || {
                let _count = count;
                let _ = serve(stream, limits, &*handler);
            });
        if spawned.is_err() {
            // No thread to be had: the connection (moved into the closure, now dropped) is
            // closed, which a client sees at once.
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The timeouts of a connection.
fn prepare(stream: &TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(IDLE))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    stream.set_nodelay(true)
}

/// Reads and answers the requests of one connection until it is to be closed.
fn serve(stream: TcpStream, limits: Limits, handler: &Handler) -> io::Result<()> {
    prepare(&stream)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    loop {
        let (response, head, keep) = match read_request(&mut reader, &stream, limits) {
            Ok(None) => return Ok(()),
            Ok(Some(Incoming { request, keep })) => {
                let head = request.method == "HEAD";
                (handler(&request), head, keep)
            }
            Err(refusal) => (refusal.response(), false, false),
        };
        send(&stream, &response, head, keep)?;
        if !keep {
            let _ = stream.shutdown(Shutdown::Write);
            return Ok(());
        }
    }
}

/// A request read, and whether the connection may carry another after it.
#[derive(Debug)]
struct Incoming {
    request: Request,
    keep: bool,
}

/// A request this server does not read: its status and why.
#[derive(Debug, PartialEq, Eq)]
struct Unread(u16, &'static str);

impl Unread {
    fn response(&self) -> Response {
        Response::bytes(self.0, "text/plain; charset=utf-8", format!("{}\n", self.1))
    }
}

/// The next request of a connection: `None` when it was closed or stayed silent between
/// requests, an [`Unread`] for one that cannot be read (the connection is then closed).
fn read_request(
    reader: &mut impl BufRead,
    stream: &TcpStream,
    limits: Limits,
) -> Result<Option<Incoming>, Unread> {
    // The first line's wait is the connection's idle time; from it on, what is left of the
    // deadline.
    let mut until = None;
    let mut arm = || {
        let until = *until.get_or_insert_with(|| Instant::now() + limits.deadline);
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Unread(408, "the request took too long to arrive"));
        }
        let _ = stream.set_read_timeout(Some(left.min(IDLE)));
        Ok(())
    };
    let head = read_head(reader, &mut arm);
    let _ = stream.set_read_timeout(Some(IDLE));
    let Some(head) = head? else {
        return Ok(None);
    };
    let (mut request, keep) = parse_head(&head)?;
    if request.header("Transfer-Encoding").is_some() {
        return Err(Unread(501, "request bodies are sent with a Content-Length"));
    }
    let length = match request.header("Content-Length") {
        None => 0,
        Some(text) => {
            (text.trim().parse::<u64>()).map_err(|_| Unread(400, "bad Content-Length"))?
        }
    };
    if length > 0
        && (request.header("Expect")).is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = (&*stream).write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let wanted = length.min(limits.body as u64 + 1);
    arm()?;
    let body = reader.take(wanted).read_to_end(&mut request.body);
    let _ = stream.set_read_timeout(Some(IDLE));
    body.map_err(|_| Unread(408, "the request body did not come"))?;
    if (request.body.len() as u64) < wanted {
        return Err(Unread(
            400,
            "the request body is shorter than its Content-Length",
        ));
    }
    Ok(Some(Incoming {
        request,
        keep: keep && wanted == length,
    }))
}

/// The request line and headers, up to the blank line (without it); `None` when the
/// connection ends (or stays silent) before a request begins. Blank lines before a request are
/// skipped, as HTTP/1.1 allows. `arm` is called before each line once the request's first
/// byte has come (it sets the time left, or refuses).
fn read_head(
    reader: &mut impl BufRead,
    arm: &mut dyn FnMut() -> Result<(), Unread>,
) -> Result<Option<Vec<u8>>, Unread> {
    // The request's first byte is waited for as long as a connection may idle.
    if !matches!(reader.fill_buf(), Ok(bytes) if !bytes.is_empty()) {
        return Ok(None);
    }
    let mut head = Vec::new();
    let mut limited = reader.take(MAX_HEAD);
    loop {
        arm()?;
        let mut line = Vec::new();
        let read = limited.read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) if head.is_empty() => return Ok(None),
            Ok(0) if limited.limit() == 0 => {
                return Err(Unread(431, "the request line and headers are too long"))
            }
            Ok(0) | Err(_) => {
                // A read cut short by the deadline is refused for the deadline (408).
                arm()?;
                return Err(Unread(400, "the request ended inside its headers"));
            }
            Ok(_) if !line.ends_with(b"\n") && limited.limit() == 0 => {
                return Err(Unread(431, "the request line and headers are too long"))
            }
            Ok(_) => {}
        }
        let blank = line == b"\r\n" || line == b"\n";
        match (blank, head.is_empty()) {
            (true, true) => continue,
            (true, false) => return Ok(Some(head)),
            (false, _) => head.extend_from_slice(&line),
        }
    }
}

/// The request of a head (request line and headers, CRLF or LF line ends), and whether its
/// connection may stay open after it.
fn parse_head(head: &[u8]) -> Result<(Request, bool), Unread> {
    let text = std::str::from_utf8(head).map_err(|_| Unread(400, "the headers are not UTF-8"))?;
    let mut lines = text.lines();
    let line = lines.next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Unread(400, "not an HTTP request line"));
    };
    let http_1_0 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(Unread(505, "only HTTP/1.1 and HTTP/1.0")),
    };
    if method.is_empty() || target.is_empty() {
        return Err(Unread(400, "not an HTTP request line"));
    }
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .filter(|(name, _)| !name.is_empty() && !name.contains([' ', '\t']))
            .ok_or(Unread(400, "a header without a name"))?;
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    let request = Request {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
        body: Vec::new(),
    };
    let asks_close = (request.header("Connection"))
        .is_some_and(|c| c.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")));
    Ok((request, !http_1_0 && !asks_close))
}

/// The reason phrase of a status this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Writes `response` (its body unless `head`), saying whether the connection stays open. A
/// file that turns out shorter than its stated length is an error: the connection must close.
fn send(stream: &TcpStream, response: &Response, head: bool, keep: bool) -> io::Result<()> {
    let mut text = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n", response.len()));
    if !keep {
        text.push_str("Connection: close\r\n");
    }
    text.push_str("\r\n");
    let mut out = io::BufWriter::new(stream);
    out.write_all(text.as_bytes())?;
    match &response.body {
        _ if head => {}
        Body::Bytes(bytes) => out.write_all(bytes)?,
        Body::File(file, len) => {
            let sent = io::copy(&mut file.take(*len), &mut out)?;
            if sent < *len {
                return Err(io::Error::other("the file shrank while it was sent"));
            }
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<(Request, bool)>, Unread> {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let stream = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let mut reader = io::Cursor::new(bytes.to_vec());
        let limits = Limits {
            body: 8,
            deadline: REQUEST_DEADLINE,
        };
        Ok(read_request(&mut reader, &stream, limits)?.map(|r| (r.request, r.keep)))
    }

    #[test]
    fn requests_are_read_with_their_headers_and_body() {
        let (request, keep) =
            read(b"\r\nPOST /x?y HTTP/1.1\r\nHost: a:1\r\nContent-Length: 3\r\n\r\nabcGET")
                .unwrap()
                .unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.target, "/x?y");
        assert_eq!(request.header("host"), Some("a:1"));
        assert_eq!(request.body, b"abc");
        assert!(keep);
        let (_, keep) = read(b"GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n")
            .unwrap()
            .unwrap();
        assert!(!keep);
        let (_, keep) = read(b"GET / HTTP/1.0\n\n").unwrap().unwrap();
        assert!(!keep);
        assert_eq!(read(b"").unwrap(), None);
    }

    /// A client that sends its headers a line at a time, each well within the idle time, is
    /// answered 408 and closed once the request's deadline has passed.
    #[test]
    fn a_request_trickled_past_its_deadline_is_refused() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let limits = Limits {
            body: 8,
            deadline: Duration::from_millis(300),
        };
        let handler: Arc<Handler> = Arc::new(|_| Response::bytes(200, "text/plain", "ok"));
        let server = HttpServer::start(listener, limits, handler).unwrap();
        let mut client = TcpStream::connect(server.addr()).unwrap();
        client
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        client.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        for k in 0..8 {
            std::thread::sleep(Duration::from_millis(100));
            // Once the server has closed, a write may fail: the answer is already there.
            if client
                .write_all(format!("X-{k}: a\r\n").as_bytes())
                .is_err()
            {
                break;
            }
        }
        let mut answer = String::new();
        let _ = client.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    }

    #[test]
    fn a_long_body_is_cut_and_closes_the_connection() {
        let (request, keep) = read(b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789abc")
            .unwrap()
            .unwrap();
        assert_eq!(request.body, b"012345678");
        assert!(!keep);
    }

    #[test]
    fn what_is_not_read_is_refused_with_a_reason() {
        let cases: [(&[u8], u16); 7] = [
            (b"GET /\r\n\r\n", 400),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                501,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", 400),
            (b"GET / HTTP/1.1\r\nHost: a", 400),
        ];
        for (bytes, status) in cases {
            let got = read(bytes).map(|_| ());
            assert_eq!(
                got.map_err(|u| u.0),
                Err(status),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
        let mut long = b"GET / HTTP/1.1\r\n".to_vec();
        long.extend(std::iter::repeat(b"X-A: b\r\n").take(4000).flatten());
        assert_eq!(read(&long).map(|_| ()).map_err(|u| u.0), Err(431));
    }
}
