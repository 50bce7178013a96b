//! The one way this project creates a file it will put in place of another (an export,
//! a conversion report, the settings file, the demo service's state): a new file beside its
//! target, created exclusively (`O_CREAT | O_EXCL`: never an existing file, and never
//! through a symbolic link at that name) under a name nobody can guess
//! (`.NAME.tmp-XXXXXX`, another one tried on a clash), written, synced, then renamed
//! over its target. A link planted in a shared folder under a name the writer might use
//! is therefore never written through, and the rename replaces whatever stands at the
//! target itself (a link there is replaced, not followed).
//!
//! Several files that belong together (an export and its report) are put in place
//! together ([`put_in_place_together`]): all of them or none.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use tempfile::{Builder, NamedTempFile, TempPath};

/// Who may read a new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// As any new file: 0666 less the umask.
    Shared,
    /// Its owner alone (0600): a file holding keys or secrets.
    Owner,
}

/// A file being written beside the file it is to replace; removed when dropped unless
/// it was put in place.
#[derive(Debug)]
pub struct NewFile {
    file: NamedTempFile,
    target: PathBuf,
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}

/// A new file in `folder` named `PREFIX` and random characters, created exclusively.
fn create_in(folder: &Path, prefix: &str, access: Access) -> io::Result<NamedTempFile> {
    let mut builder = Builder::new();
    builder.prefix(prefix).rand_bytes(12);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = match access {
            Access::Shared => 0o666,
            Access::Owner => 0o600,
        };
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = access;
    builder.tempfile_in(folder)
}

/// `.NAME.` for `…/NAME`; an error for a path that names no file (`/`, `..`).
fn hidden_prefix(target: &Path) -> io::Result<String> {
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names no file", target.display()),
        )
    })?;
    Ok(format!(".{}.", name.to_string_lossy()))
}

impl NewFile {
    /// A new, empty file beside `target` (in its folder), to be put in place of it.
    pub fn beside(target: &Path, access: Access) -> io::Result<NewFile> {
        let prefix = format!("{}tmp-", hidden_prefix(target)?);
        Ok(NewFile {
            file: create_in(folder_of(target), &prefix, access)?,
            target: target.to_owned(),
        })
    }

    /// What it is to replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Where it is written meanwhile.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    pub fn as_file(&self) -> &File {
        self.file.as_file()
    }

    /// Syncs it to the disk and renames it over its target; on an error it is removed.
    pub fn put_in_place(self) -> io::Result<()> {
        self.file.as_file().sync_all()?;
        self.file
            .persist(&self.target)
            .map(drop)
            .map_err(|e| e.error)
    }
}

impl Write for NewFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Seek for NewFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.file.seek(to)
    }
}

/// A file of a group that could not be put in place.
#[derive(Debug)]
pub struct NotPutInPlace {
    /// The target it was to replace.
    pub target: PathBuf,
    pub source: io::Error,
}

/// What stood at a target before a new file replaced it.
enum Before {
    /// Nothing: taking the new file back removes it.
    Nothing,
    /// Kept under a temporary name (a hard link, or a copy where the file system has
    /// none) until the group is in place: taking the new file back restores it.
    Kept(TempPath),
    /// Something that could not be kept: taking the new file back removes it.
    NotKept,
}

/// Keeps what stands at `target` under another name in its folder, created as
/// exclusively as a new file.
fn keep(target: &Path) -> io::Result<Before> {
    let meta = match std::fs::symlink_metadata(target) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Before::Nothing),
        Err(e) => return Err(e),
    };
    let prefix = format!("{}old-", hidden_prefix(target)?);
    let folder = folder_of(target);
    // `hard_link` makes the new name or fails if it exists; it does not follow a link
    // at `target` (it links the link).
    let linked = Builder::new()
        .prefix(&prefix)
        .rand_bytes(12)
        .make_in(folder, |name| std::fs::hard_link(target, name));
    if let Ok(linked) = linked {
        return Ok(Before::Kept(linked.into_temp_path()));
    }
    if !meta.is_file() {
        return Ok(Before::NotKept);
    }
    // A file system without hard links (FAT, some network shares): a copy.
    let mut copy = create_in(folder, &prefix, Access::Owner)?;
    let mut from = File::open(target)?;
    io::copy(&mut from, &mut copy)?;
    copy.as_file().set_permissions(meta.permissions())?;
    copy.as_file().sync_all()?;
    Ok(Before::Kept(copy.into_temp_path()))
}

/// Puts `files` in place in their order, all of them or none. What each but the last
/// replaces is kept (see [`Before`]) until the last is in place; when one cannot be put
/// in place, those before it are taken back (what they replaced restored, or they are
/// removed) and the error names the target that failed. A crash between two renames
/// leaves the earlier files new and the later ones as they were (and a kept
/// `.NAME.old-…` file): so the file that vouches for the others goes last.
pub fn put_in_place_together(files: Vec<NewFile>) -> Result<(), NotPutInPlace> {
    let last = files.len().saturating_sub(1);
    let mut done: Vec<(PathBuf, Before)> = Vec::new();
    let mut failed = None;
    for (i, file) in files.into_iter().enumerate() {
        let target = file.target.clone();
        let before = match i < last {
            true => keep(&target),
            false => Ok(Before::NotKept),
        };
        let put = before.and_then(|before| file.put_in_place().map(|()| before));
        match put {
            Ok(before) => done.push((target, before)),
            Err(source) => {
                failed = Some(NotPutInPlace { target, source });
                break;
            }
        }
    }
    let Some(failed) = failed else {
        return Ok(()); // the kept files are removed as they are dropped
    };
    for (target, before) in done.into_iter().rev() {
        let _ = match before {
            Before::Kept(kept) => kept.persist(&target).map_err(io::Error::from),
            Before::Nothing | Before::NotKept => std::fs::remove_file(&target),
        };
    }
    Err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_under_any_name_is_never_written_through() {
        let dir = tempfile::tempdir().expect("dir");
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, b"mine").expect("victim");
        let target = dir.path().join("out.json");
        // Links for every name the old writer would have used next, and some more.
        for n in 0..50 {
            let name = format!(".out.json.tmp-{}-{n}", std::process::id());
            std::os::unix::fs::symlink(&victim, dir.path().join(name)).expect("link");
        }
        let mut file = NewFile::beside(&target, Access::Shared).expect("created");
        assert!(!std::fs::symlink_metadata(file.path())
            .expect("there")
            .file_type()
            .is_symlink());
        file.write_all(b"new").expect("written");
        file.put_in_place().expect("in place");
        assert_eq!(std::fs::read(&victim).expect("victim"), b"mine");
        assert_eq!(std::fs::read(&target).expect("target"), b"new");
        assert!(!std::fs::symlink_metadata(&target)
            .expect("there")
            .file_type()
            .is_symlink());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_target_is_replaced_not_followed() {
        let dir = tempfile::tempdir().expect("dir");
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, b"mine").expect("victim");
        let target = dir.path().join("out.conversion.json");
        std::os::unix::fs::symlink(&victim, &target).expect("link");
        let mut file = NewFile::beside(&target, Access::Shared).expect("created");
        file.write_all(b"report").expect("written");
        file.put_in_place().expect("in place");
        assert_eq!(std::fs::read(&victim).expect("victim"), b"mine");
        assert_eq!(std::fs::read(&target).expect("target"), b"report");
    }

    #[cfg(unix)]
    #[test]
    fn modes_are_as_asked() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let secret = NewFile::beside(&dir.path().join("state.json"), Access::Owner).expect("new");
        let mode = secret
            .as_file()
            .metadata()
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let shared = NewFile::beside(&dir.path().join("out.json"), Access::Shared).expect("new");
        let mode = shared
            .as_file()
            .metadata()
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o600, 0o600, "at least its owner's, as any new file");
    }

    #[test]
    fn a_group_goes_in_place_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("dir");
        let out = dir.path().join("plant.json");
        let report = dir.path().join("plant.conversion.json");
        std::fs::write(&out, b"old export").expect("old");

        let new = |target: &Path, text: &[u8]| {
            let mut file = NewFile::beside(target, Access::Shared).expect("new");
            file.write_all(text).expect("written");
            file
        };
        // The report cannot be put in place (a folder stands there): the old export is
        // back, and nothing else is left.
        std::fs::create_dir(&report).expect("folder");
        std::fs::write(report.join("inside"), b"x").expect("a file in it");
        let failed = put_in_place_together(vec![new(&out, b"new"), new(&report, b"rep")])
            .expect_err("the report's place is a folder");
        assert_eq!(failed.target, report);
        assert_eq!(std::fs::read(&out).expect("old"), b"old export");
        assert_eq!(names(dir.path()), ["plant.conversion.json", "plant.json"]);

        // With nothing before, taking back removes it.
        let fresh = dir.path().join("fresh.json");
        put_in_place_together(vec![new(&fresh, b"new"), new(&report, b"rep")])
            .expect_err("still a folder");
        assert!(!fresh.exists());

        std::fs::remove_dir_all(&report).expect("folder gone");
        put_in_place_together(vec![new(&out, b"new"), new(&report, b"rep")]).expect("both");
        assert_eq!(std::fs::read(&out).expect("new"), b"new");
        assert_eq!(std::fs::read(&report).expect("report"), b"rep");
        assert_eq!(names(dir.path()), ["plant.conversion.json", "plant.json"]);
    }
}
