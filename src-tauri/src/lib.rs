//! The desktop shell's library part: how the process is prepared for WebKit before its
//! first thread (drawing, the page's heap, freed memory given back). A library so that
//! its memory test runs as a test binary of its own (tests/heap.rs).

pub mod desktop_process;
