//! The game record of RECORD.md, as the server uses it: reading,
//! replaying and writing to text are the engine's ([`pbem_engine::record`],
//! re-exported here); [`write`] adds the atomic file writing.

pub mod write;

pub use pbem_engine::record::{
    Entry, Event, MoveLine, Record, RecordError, Replayed, message_id_form, read, replay,
};
