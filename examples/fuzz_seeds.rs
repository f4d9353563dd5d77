//! Writes the fuzz targets' seed corpora from the test fixtures: text
//! fixtures are copied, `.brdesc` and `.dbfdesc` descriptions are compiled
//! to the binary files they describe. The corpora are generated, never
//! committed (`fuzz/corpus/` is ignored):
//!
//! ```sh
//! cargo run --example fuzz_seeds -- fuzz/corpus
//! ```

use profx::fixture_gen::{br, dbf};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Fuzz target → fixture folders that seed it (the real files seed the
/// text formats: each target skips what is not its own).
const TARGETS: [(&str, &[&str]); 4] = [
    ("plist", &["tests/fixtures/plist", "tests/fixtures/real"]),
    ("br", &["tests/fixtures/br"]),
    ("xpp", &["tests/fixtures/xpp"]),
    ("vs_csv", &["tests/fixtures/vs-csv", "tests/fixtures/real"]),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out] = args.as_slice() else {
        eprintln!("usage: fuzz_seeds CORPUS_DIR");
        return ExitCode::from(2);
    };
    for (target, dirs) in TARGETS {
        let dest = Path::new(out).join(target);
        let written = dirs
            .iter()
            .map(|d| seed(Path::new(d), &dest))
            .sum::<Result<usize, _>>();
        match written {
            Ok(n) => println!("{target}: {n} seeds in {}", dest.display()),
            Err(e) => {
                eprintln!("fuzz_seeds: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Seeds `dest` from every file under `dir` (recursively); a missing
/// folder seeds nothing.
fn seed(dir: &Path, dest: &Path) -> Result<usize, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(0);
    };
    std::fs::create_dir_all(dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let mut n = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            n += seed(&path, dest)?;
            continue;
        }
        let Some(bytes) = bytes_of(&path)? else {
            continue;
        };
        let name = path.to_string_lossy().replace(['/', '\\'], "_");
        let file: PathBuf = dest.join(name);
        std::fs::write(&file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        n += 1;
    }
    Ok(n)
}

fn bytes_of(path: &Path) -> Result<Option<Vec<u8>>, String> {
    let err = |e: String| format!("{}: {e}", path.display());
    let name = path.to_string_lossy();
    if name.ends_with(".md") || name.ends_with(".snap") {
        return Ok(None);
    }
    if name.ends_with(".brdesc") || name.ends_with(".dbfdesc") {
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let compiled = if name.ends_with(".brdesc") {
            br::compile(&text)
        } else {
            dbf::compile(&text)
        };
        return compiled.map(Some).map_err(|e| err(e.to_string()));
    }
    std::fs::read(path)
        .map(Some)
        .map_err(|e| err(e.to_string()))
}
