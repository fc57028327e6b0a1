//! What the server on the loopback interface takes as its own name.

/// Whether a `Host` header names this server (on loopback, by address or `localhost`).
pub fn host_is_local(host: &str, port: u16) -> bool {
    let name = host
        .strip_suffix(&format!(":{port}"))
        .unwrap_or(host)
        .to_ascii_lowercase();
    matches!(name.as_str(), "127.0.0.1" | "localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert!(host_is_local("127.0.0.1:8419", 8419));
        assert!(host_is_local("localhost:8419", 8419));
        assert!(host_is_local("LOCALHOST", 8419));
        assert!(!host_is_local("evil.example:8419", 8419));
        assert!(!host_is_local("127.0.0.1.evil.example", 8419));
    }
}
