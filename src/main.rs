//! The `pbem` binary: parse the arguments, run, map the outcome to an exit
//! code (0 good, 1 a bad input, 2 a usage error).

fn main() {
    let cli = pbem::cli::Cli::from_args();
    pbem::logging::init();
    let code = match cli.execute() {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`pbem moves x | head`) is not an error.
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                0
            } else {
                eprintln!("pbem: {}", pbem::cli::error_words(&e));
                1
            }
        }
    };
    std::process::exit(code);
}
