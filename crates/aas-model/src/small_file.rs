//! Reading a small file a user names, such as a secret (`AASMD_CLIENT_SECRET_FILE`, a
//! password file) or an audit template: a regular file only, and no more than a limit.
//!
//! A FIFO would block the open and then the read until a writer comes (a scheduled take
//! hung forever), `/dev/zero` never ends (memory grew until the process was killed), and
//! a large file was read whole. Here the path is looked at first, so a device or FIFO is
//! never opened in the usual case; then it is opened without blocking (`O_NONBLOCK`, so
//! a FIFO swapped in after that look cannot hang the open either) and the opened file
//! itself is checked again before a byte is read; at most `limit` + 1 bytes are read.
//!
//! Errors say what is wrong with the file, never what it holds; callers name the file.

use std::fs::{File, Metadata};
use std::io::{Error, ErrorKind, Read, Result};
use std::path::Path;

/// The bytes of the regular file at `path` (a symbolic link is followed), at most
/// `limit` of them: anything else is an error of kind `InvalidInput` ("not a regular
/// file: a FIFO") or `FileTooLarge` ("larger than 64 KiB, the most read from such a
/// file").
pub fn read_small_file(path: &Path, limit: u64) -> Result<Vec<u8>> {
    regular(&std::fs::metadata(path)?)?;
    let mut file = open(path)?;
    let found = file.metadata()?;
    regular(&found)?;
    if found.len() > limit {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::with_capacity(found.len() as usize);
    // The file may have grown since its size was asked.
    (&mut file).take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// [`read_small_file`] as UTF-8 text (an error of kind `InvalidData` otherwise).
pub fn read_small_text(path: &Path, limit: u64) -> Result<String> {
    String::from_utf8(read_small_file(path, limit)?)
        .map_err(|_| Error::new(ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// Opens `path` for reading without waiting for a FIFO's writer, then puts the file
/// back in blocking mode (a regular file's reads never block anyway).
#[cfg(unix)]
fn open(path: &Path) -> Result<File> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
        .open(path)?;
    let flags = rustix::fs::fcntl_getfl(&file)?;
    rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
    Ok(file)
}

#[cfg(not(unix))]
fn open(path: &Path) -> Result<File> {
    File::open(path)
}

/// An error unless `meta` is a regular file's, naming what it is instead.
fn regular(meta: &Metadata) -> Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let kind = kind(meta);
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!("it is not a regular file but {kind}"),
    ))
}

fn kind(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

fn too_large(limit: u64) -> Error {
    let size = match limit {
        l if l >= 1 << 20 && l % (1 << 20) == 0 => format!("{} MiB", l >> 20),
        l if l >= 1 << 10 && l % (1 << 10) == 0 => format!("{} KiB", l >> 10),
        l => format!("{l} bytes"),
    };
    Error::new(
        ErrorKind::FileTooLarge,
        format!("it is larger than {size}, the most read from such a file"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("aas-small-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_small_regular_file_is_read_whole_and_a_link_is_followed() {
        let dir = dir("regular");
        let file = dir.join("secret");
        std::fs::write(&file, "s3cret\n").expect("write");
        assert_eq!(read_small_text(&file, 64).expect("read"), "s3cret\n");
        assert_eq!(
            read_small_file(&file, 7).expect("at the limit"),
            b"s3cret\n"
        );
        #[cfg(unix)]
        {
            let link = dir.join("link");
            std::os::unix::fs::symlink(&file, &link).expect("link");
            assert_eq!(read_small_text(&link, 64).expect("read"), "s3cret\n");
        }
        std::fs::write(&file, [0xff, 0xfe]).expect("write");
        let e = read_small_text(&file, 64).expect_err("not UTF-8");
        assert_eq!(e.kind(), ErrorKind::InvalidData);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_file_past_the_limit_is_refused_without_its_content() {
        let dir = dir("large");
        let file = dir.join("big");
        std::fs::write(&file, "canary-123456789").expect("write");
        let e = read_small_file(&file, 8).expect_err("too large");
        assert_eq!(e.kind(), ErrorKind::FileTooLarge);
        assert!(!e.to_string().contains("canary"), "{e}");
        assert!(e.to_string().contains("8 bytes"), "{e}");
        // A sparse file of 1 GiB: refused by its size, nothing read.
        let huge = File::create(dir.join("huge")).expect("create");
        huge.set_len(1 << 30).expect("sparse");
        let e = read_small_file(&dir.join("huge"), 64 << 10).expect_err("too large");
        assert!(e.to_string().contains("64 KiB"), "{e}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_folder_is_refused() {
        let dir = dir("folder");
        let e = read_small_file(&dir, 64).expect_err("a folder");
        assert_eq!(e.kind(), ErrorKind::InvalidInput);
        assert!(e.to_string().contains("a folder"), "{e}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    /// A FIFO without a writer, and `/dev/zero`: refused at once, nothing waited for.
    #[cfg(unix)]
    #[test]
    fn a_fifo_and_a_device_are_refused_without_waiting() {
        let dir = dir("fifo");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let e = read_small_file(&fifo, 64).expect_err("a FIFO");
        assert!(e.to_string().contains("FIFO"), "{e}");
        let e = read_small_file(Path::new("/dev/zero"), 64).expect_err("a device");
        assert!(e.to_string().contains("character device"), "{e}");
        // The opened file is checked too (a FIFO put in place after the first look).
        let e = open(&fifo).and_then(|f| regular(&f.metadata()?));
        assert!(e.expect_err("a FIFO").to_string().contains("FIFO"));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
