//! The files a path given as input stands for: a file itself, or the files of one kind in a
//! folder (not its subfolders), sorted by path. The one rule for `index` and `kb add`.

use std::path::{Path, PathBuf};

use crate::IndexError;

/// Which files of a folder an input folder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderFiles {
    /// Every `*.pdf` (`index`).
    Pdfs,
    /// Every `*.pdf` and `*.tree.json`, as `index` (and `index --shard`) writes them
    /// (`kb add`).
    PdfsAndTrees,
    /// Every `*.tree.json` (`kb add-tree` of an `index --shard` output folder).
    Trees,
}

impl FolderFiles {
    /// Whether a file called `name` is one of these (extensions in any case).
    fn matches(self, name: &str) -> bool {
        let lower = name.to_lowercase();
        let (pdf, tree) = (lower.ends_with(".pdf"), lower.ends_with(".tree.json"));
        match self {
            FolderFiles::Pdfs => pdf,
            FolderFiles::PdfsAndTrees => pdf || tree,
            FolderFiles::Trees => tree,
        }
    }

    /// What is looked for, in words and as patterns, for the error of an empty folder.
    fn described(self) -> (&'static str, &'static str) {
        match self {
            FolderFiles::Pdfs => ("PDF", "*.pdf"),
            FolderFiles::PdfsAndTrees => ("PDF or tree file", "*.pdf, *.tree.json"),
            FolderFiles::Trees => ("tree file", "*.tree.json"),
        }
    }
}

/// The files each of `inputs` stands for, in order: a path that is not a folder stands for
/// itself (whether it exists is for the caller to find out, with the file's own error); a
/// folder for its files of kind `which`, sorted.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use nanoindex::inputs::{files_of, FolderFiles};
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("b.PDF"), b"")?;
/// std::fs::write(dir.path().join("a.pdf"), b"")?;
/// std::fs::write(dir.path().join("notes.txt"), b"")?;
/// let files = files_of(&[dir.path().to_path_buf()], FolderFiles::Pdfs)?;
/// assert_eq!(files, [dir.path().join("a.pdf"), dir.path().join("b.PDF")]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`IndexError::Io`] when a folder cannot be listed; [`IndexError::EmptyFolder`] when a
/// folder holds no file of kind `which`.
pub fn files_of(inputs: &[PathBuf], which: FolderFiles) -> Result<Vec<PathBuf>, IndexError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            files.extend(in_folder(input, which)?);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn in_folder(folder: &Path, which: FolderFiles) -> Result<Vec<PathBuf>, IndexError> {
    let entries = std::fs::read_dir(folder).map_err(|source| IndexError::Io {
        path: folder.to_path_buf(),
        source,
    })?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .is_some_and(|n| which.matches(&n.to_string_lossy()))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        let (what, pattern) = which.described();
        return Err(IndexError::EmptyFolder {
            path: folder.to_path_buf(),
            what,
            pattern,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_stands_for_its_files_of_the_kind_and_an_empty_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        let empty = files_of(std::slice::from_ref(&path), FolderFiles::Pdfs).unwrap_err();
        assert!(
            matches!(&empty, IndexError::EmptyFolder { path: p, .. } if *p == path),
            "{empty}"
        );
        assert!(
            empty.to_string().starts_with("no PDF found in `"),
            "{empty}"
        );
        std::fs::write(path.join("x.tree.json"), b"{}").unwrap();
        std::fs::create_dir(path.join("folder.pdf")).unwrap();
        assert!(files_of(std::slice::from_ref(&path), FolderFiles::Pdfs).is_err());
        let trees = files_of(std::slice::from_ref(&path), FolderFiles::PdfsAndTrees).unwrap();
        assert_eq!(trees, [path.join("x.tree.json")]);
        let file = path.join("x.tree.json");
        assert_eq!(
            files_of(std::slice::from_ref(&file), FolderFiles::Pdfs).unwrap(),
            [file]
        );
    }
}
