//! Helpers the test groups share.
