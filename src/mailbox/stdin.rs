//! One mail on standard input (`pbem deliver`, for an MTA's pipe).

use super::{InboxMail, MAX_MAIL, Source};
use std::io::{self, Read};

/// One mail read from standard input (`pbem deliver`).
pub struct Stdin {
    mail: Option<Vec<u8>>,
}

impl Stdin {
    /// Reads the whole of standard input (at most [`MAX_MAIL`] bytes).
    ///
    /// # Errors
    /// When standard input cannot be read.
    pub fn read() -> io::Result<Stdin> {
        let mut raw = Vec::new();
        io::stdin().take(MAX_MAIL).read_to_end(&mut raw)?;
        Ok(Stdin { mail: Some(raw) })
    }
    pub fn from_bytes(raw: Vec<u8>) -> Stdin {
        Stdin { mail: Some(raw) }
    }
}

impl Source for Stdin {
    fn pending(&mut self) -> io::Result<Vec<InboxMail>> {
        Ok(self
            .mail
            .clone()
            .map(|raw| InboxMail {
                name: "stdin".into(),
                raw,
            })
            .into_iter()
            .collect())
    }
    fn done(&mut self, _: &InboxMail) -> io::Result<()> {
        self.mail = None;
        Ok(())
    }
}
