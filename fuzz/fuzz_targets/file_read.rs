//! Arbitrary bytes read as an AAS file is read (an AASX package, or an environment as
//! JSON or XML of any version): into the model the tree shows, and as the answers the
//! store takes in. Never a panic; a file that reads gives answers that are each a JSON
//! list, at every level.
#![no_main]

use std::ops::ControlFlow;

use aas_source::{NodeLevel, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = aas_file::read_bytes("fuzzed", data.to_vec());
    let Ok(answers) = aas_file::answers_of("fuzzed", data.to_vec()) else {
        return;
    };
    for level in NodeLevel::ALL {
        let walked = answers.each(level, &mut |_, url, body| {
            let list: serde_json::Value = serde_json::from_reader(body).expect("an answer reads");
            assert!(list.is_array(), "{url} is not a list");
            ControlFlow::Continue(())
        });
        assert!(walked.is_ok());
    }
});
