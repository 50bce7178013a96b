//! The reading the app's *Open file…* makes, alone (bench/file-open.sh): the AAS file
//! FILE read into the model of shells, submodels and elements, then counted. Prints one
//! JSON line: the shells, submodels and elements read.
//!
//!     read_file FILE

fn count(elements: &[aas_file::Element]) -> usize {
    elements.iter().map(|e| 1 + count(&e.children)).sum()
}

fn main() {
    let Some(file) = std::env::args_os().nth(1) else {
        eprintln!("usage: read_file FILE");
        std::process::exit(2);
    };
    let contents = match aas_file::read(std::path::Path::new(&file)) {
        Ok(contents) => contents,
        Err(e) => {
            eprintln!("read_file: {e}");
            std::process::exit(1);
        }
    };
    let elements: usize = contents.submodels.iter().map(|s| count(&s.elements)).sum();
    println!(
        "{{\"shells\": {}, \"submodels\": {}, \"elements\": {elements}}}",
        contents.shells.len(),
        contents.submodels.len()
    );
}
