//! The connection to the IMAP server: TCP, TLS (rustls, with a private
//! CA file if configured) or STARTTLS, login, the processed folder made
//! when missing, and the folder selected.

use super::*;

/// The connection: plain TCP, or TLS over it.
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Stream {
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(t) => t,
            Stream::Tls(t) => t.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(t) => t.read(buf),
            Stream::Tls(t) => t.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(t) => t.write(buf),
            Stream::Tls(t) => t.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(t) => t.flush(),
            Stream::Tls(t) => t.flush(),
        }
    }
}

impl SetReadTimeout for Stream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        self.tcp()
            .set_read_timeout(timeout)
            .map_err(imap::Error::Io)
    }
}

/// Connect, TLS as configured, log in, make the processed folder when
/// missing, select the folder.
pub(super) fn connect(config: &ImapConfig) -> Result<Conn, ImapError> {
    let failed = |message: String| connect_error(config, message);
    let (stream, socket) = open_stream(config)?;
    let mut client = imap::Client::new(stream);
    if config.security == Security::Starttls {
        // Read by `starttls`, before the handshake.
        client.greeting_read = true;
    } else {
        read_greeting(&mut client, config)?;
    }
    let password = config.password()?;
    let mut session = client
        .login(&config.user, &password)
        .map_err(|(e, _)| ImapError::Login {
            user: config.user.clone(),
            message: e.to_string(),
        })?;
    socket
        .set_read_timeout(Some(IO_TIMEOUT))
        .map_err(|e| failed(e.to_string()))?;
    let caps = session
        .capabilities()
        .map_err(ImapError::protocol("CAPABILITY"))?;
    let caps = Capabilities {
        idle: caps.has_str("IDLE"),
        moves: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
    };
    if let Some(to) = &config.processed_folder {
        make_folder(&mut session, to)?;
    }
    let validity = select(&mut session, &config.folder, "folder")?;
    Ok(Conn {
        session,
        socket,
        caps,
        validity,
    })
}

/// The error of a connection to the configured server that failed.
fn connect_error(config: &ImapConfig, message: String) -> ImapError {
    ImapError::Connect {
        host: config.host.clone(),
        port: config.port(),
        message,
    }
}

/// The TCP connection, and TLS on it as configured (STARTTLS included):
/// the stream to speak IMAP on, and a second handle of its socket.
fn open_stream(config: &ImapConfig) -> Result<(Stream, TcpStream), ImapError> {
    let host = config.host.as_str();
    let port = config.port();
    let failed = |message: String| connect_error(config, message);
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| failed(e.to_string()))?;
    let mut last = "the name has no address".to_string();
    let mut tcp = None;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
            Ok(t) => {
                tcp = Some(t);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let mut tcp = tcp.ok_or_else(|| failed(last))?;
    // Until logged in, a short timeout: a server that says nothing is
    // likely an IMAPS port spoken to without TLS.
    tcp.set_read_timeout(Some(CONNECT_TIMEOUT))
        .and_then(|()| tcp.set_write_timeout(Some(IO_TIMEOUT)))
        .map_err(|e| failed(e.to_string()))?;
    let socket = tcp.try_clone().map_err(|e| failed(e.to_string()))?;
    let tls_failed = |e: TlsFailure| ImapError::Tls {
        host: host.to_string(),
        port,
        message: e.to_string(),
    };
    let stream = match config.security {
        Security::Plain => Stream::Plain(tcp),
        Security::Tls => Stream::Tls(Box::new(handshake(config, tcp).map_err(tls_failed)?)),
        Security::Starttls => {
            match starttls(&mut tcp) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(ImapError::NoStarttls {
                        host: host.to_string(),
                        port,
                    });
                }
                Err(e) if is_timeout(&e) => {
                    return Err(failed(format!(
                        "no greeting within {} s (an IMAPS port? then security = \"tls\")",
                        CONNECT_TIMEOUT.as_secs()
                    )));
                }
                Err(e) => return Err(failed(format!("before STARTTLS: {e}"))),
            }
            Stream::Tls(Box::new(handshake(config, tcp).map_err(tls_failed)?))
        }
    };
    Ok((stream, socket))
}

/// Reads the server's greeting: `* OK` or `* PREAUTH`, else an error.
fn read_greeting(client: &mut imap::Client<Stream>, config: &ImapConfig) -> Result<(), ImapError> {
    let failed = |message: String| connect_error(config, message);
    let greeting = client.read_greeting().map_err(|e| match e {
        imap::Error::Io(e) if is_timeout(&e) => failed(format!(
            "no greeting within {} s (an IMAPS port? then security = \"tls\")",
            CONNECT_TIMEOUT.as_secs()
        )),
        e => failed(format!("no greeting: {e}")),
    })?;
    if !greeting.starts_with(b"* OK") && !greeting.starts_with(b"* PREAUTH") {
        return Err(failed(format!(
            "the server says {:?}",
            String::from_utf8_lossy(&greeting).trim_end()
        )));
    }
    Ok(())
}

/// Makes the processed folder `to` when it is missing.
fn make_folder(session: &mut Session, to: &String) -> Result<(), ImapError> {
    let exists = session
        .list(None, Some(to))
        .map_err(|e| ImapError::Folder {
            folder: to.clone(),
            key: "processed_folder",
            message: e.to_string(),
        })?
        .iter()
        .next()
        .is_some();
    if !exists && let Err(e) = session.create(to) {
        // Another connection (a second pbem, a reconnect) may have
        // made it between the LIST and the CREATE: that is no error.
        let made_meanwhile = e.to_string().contains("ALREADYEXISTS")
            || session
                .list(None, Some(to))
                .is_ok_and(|l| l.iter().next().is_some());
        if !made_meanwhile {
            return Err(ImapError::Folder {
                folder: to.clone(),
                key: "processed_folder",
                message: format!("cannot create it: {e}"),
            });
        }
    }
    Ok(())
}

pub(super) fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Why TLS with the server could not start.
#[derive(Debug, thiserror::Error)]
pub(super) enum TlsFailure {
    #[error("inbox.imap.ca_file {path}: {source}")]
    CaFile {
        path: String,
        source: rustls::pki_types::pem::Error,
    },
    #[error("inbox.imap.ca_file {path}: {source}")]
    Certificate { path: String, source: rustls::Error },
    #[error("inbox.imap.ca_file {path}: no PEM certificate in it")]
    NoCertificate { path: String },
    #[error("host \"{host}\": {source}")]
    Host {
        host: String,
        source: rustls::pki_types::InvalidDnsNameError,
    },
    #[error(transparent)]
    Rustls(#[from] rustls::Error),
    /// The handshake's error; rustls's own reason when it gave one.
    #[error("{}", .0.get_ref().map_or_else(|| .0.to_string(), ToString::to_string))]
    Handshake(#[source] io::Error),
}

/// The TLS client settings: the public roots, plus `ca_file`.
pub(super) fn tls_config(config: &ImapConfig) -> Result<Arc<rustls::ClientConfig>, TlsFailure> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(ca) = &config.ca_file {
        let path = ca.display().to_string();
        let mut n = 0;
        let pem = |source| TlsFailure::CaFile {
            path: path.clone(),
            source,
        };
        for cert in CertificateDer::pem_file_iter(ca).map_err(pem)? {
            roots
                .add(cert.map_err(pem)?)
                .map_err(|source| TlsFailure::Certificate {
                    path: path.clone(),
                    source,
                })?;
            n += 1;
        }
        if n == 0 {
            return Err(TlsFailure::NoCertificate { path });
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}

/// The TLS handshake over `tcp`, done now so that a bad certificate is
/// reported as such.
pub(super) fn handshake(
    config: &ImapConfig,
    mut tcp: TcpStream,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, TcpStream>, TlsFailure> {
    let host = config.host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(host.to_string()).map_err(|source| TlsFailure::Host {
        host: config.host.clone(),
        source,
    })?;
    let mut conn = rustls::ClientConnection::new(tls_config(config)?, name)?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp).map_err(TlsFailure::Handshake)?;
    }
    Ok(rustls::StreamOwned::new(conn, tcp))
}

/// Before STARTTLS (RFC 3501 section 6.2.1): reads the greeting, asks for
/// the capabilities and, when STARTTLS is among them, sends it. False when
/// the server does not offer it. Reads byte by byte so that nothing of the
/// TLS stream that follows is taken.
pub(super) fn starttls(tcp: &mut TcpStream) -> io::Result<bool> {
    let mut reader = io::BufReader::with_capacity(1, &*tcp);
    let greeting = read_line(&mut reader)?;
    if !greeting.starts_with("* OK") {
        return Err(io::Error::other(format!(
            "the server says {:?}",
            greeting.trim_end()
        )));
    }
    (&*tcp).write_all(b"s1 CAPABILITY\r\n")?;
    let mut offered = false;
    loop {
        let line = read_line(&mut reader)?;
        if line.starts_with("* ") && line.to_ascii_uppercase().contains(" STARTTLS") {
            offered = true;
        }
        if let Some(rest) = line.strip_prefix("s1 ") {
            if !rest.starts_with("OK") {
                return Err(io::Error::other(format!("CAPABILITY: {}", rest.trim_end())));
            }
            break;
        }
    }
    if !offered {
        return Ok(false);
    }
    (&*tcp).write_all(b"s2 STARTTLS\r\n")?;
    loop {
        let line = read_line(&mut reader)?;
        if let Some(rest) = line.strip_prefix("s2 ") {
            return if rest.starts_with("OK") {
                Ok(true)
            } else {
                Err(io::Error::other(format!("STARTTLS: {}", rest.trim_end())))
            };
        }
    }
}

/// One line of at most 8 KiB.
pub(super) fn read_line(reader: &mut impl BufRead) -> io::Result<String> {
    let mut buf = Vec::new();
    let n = reader.take(8192).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        ));
    }
    if !buf.ends_with(b"\n") {
        return Err(io::Error::other("a line longer than 8 KiB"));
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}
