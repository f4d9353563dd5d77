//! Large synthetic inputs of every format, for benchmarks (issue 7): a size
//! in bytes and a number of distinct names as parameters, written as a
//! stream so gigabytes never sit in memory. Never committed: made on the
//! machine that measures (`cargo run --release --example gen_large`).
//!
//! The content is a deterministic random walk (a fixed-seed xorshift), so
//! the same parameters give the same file: calls nest up to a few levels on
//! a few threads, names are drawn with a bias toward a hot few, as real
//! profiles are.

use byteorder::{BigEndian, WriteBytesExt};
use std::io::{self, Seek, SeekFrom, Write};

/// The formats the generator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Xbase++ DELDBE (comma-delimited) trace.
    Deldbe,
    /// Xbase++ FOXDBE (DBF) trace.
    Dbf,
    /// BR timed profiler log.
    Br,
    /// Visual C++ PLIST /T: one function record (and its stack) per name.
    Plist,
}

impl Format {
    /// The format named `s` (`deldbe`, `dbf`, `br` or `plist`, as `gen_large`
    /// takes it); `None` for any other.
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s {
            "deldbe" => Format::Deldbe,
            "dbf" => Format::Dbf,
            "br" => Format::Br,
            "plist" => Format::Plist,
            _ => return None,
        })
    }
}

/// What to write.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The format to write.
    pub kind: Format,
    /// Stop once this many bytes are written (PLIST: ignored, one record a name).
    pub bytes: u64,
    /// Distinct function names.
    pub names: u32,
    /// How much like a real program's output the file is.
    pub shape: Shape,
}

/// How much like a real program's output the file is (issue 40).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// The generator's first shape: names `FN000123`, one call site per
    /// caller and callee, four threads, no parameters.
    #[default]
    Current,
    /// The shapes real files have and `Current` never writes:
    /// - names of 6 to 60 bytes: Xbase++ methods (`CUSTOMERDIALOG:VALIDATE`),
    ///   C++ names with namespaces and templates sharing long prefixes
    ///   (`std::basic_string<char>::…`, `CWinThread::…`), short functions;
    /// - a trace's parameters field (DELDBE's sixth column, `""` when the
    ///   call had none; a DBF `PARAMS` field);
    /// - tens of call sites per caller (each call of a callee from one of
    ///   several lines);
    /// - eight threads.
    Real,
}

impl Shape {
    /// The shape named `s` (`current` or `real`, as `gen_large` takes it);
    /// `None` for any other.
    pub fn parse(s: &str) -> Option<Shape> {
        match s {
            "current" => Some(Shape::Current),
            "real" => Some(Shape::Real),
            _ => None,
        }
    }
}

/// Long shared prefixes of C++ names (namespaces, classes, templates).
const CPP_PREFIXES: [&str; 8] = [
    "std::basic_string<char,std::char_traits<char>>::",
    "CWinThread::",
    "Concurrency::details::_TaskCollection::",
    "std::_Tree<std::_Tmap_traits<int,CString>>::",
    "CDocument::",
    "ATL::CStringT<wchar_t,StrTraitMFC<wchar_t>>::",
    "boost::asio::detail::reactive_socket_service::",
    "CMainFrame::",
];

/// Xbase++ classes for `CLASS:METHOD` names.
const CLASSES: [&str; 8] = [
    "CUSTOMERDIALOG",
    "ORDERBROWSER",
    "INVOICEPRINTER",
    "STOCKLEDGER",
    "XBPBROWSE",
    "DACSQLSTATEMENT",
    "REPORTWRITER",
    "TAXTABLE",
];

const METHODS: [&str; 8] = [
    "VALIDATE",
    "INIT",
    "CREATE",
    "REFRESH",
    "ONCLICK",
    "SKIPBLOCK",
    "GETDATA",
    "PRINT",
];

/// The text of name `f`: `FN000123` for the current shape; for the real
/// one, a name of 6 to 60 bytes of one of three families, the same for
/// the same `f` in every format and run.
fn name_text(f: u32, shape: Shape) -> String {
    if shape == Shape::Current {
        return format!("FN{f:06}");
    }
    let h = u64::from(f).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let pick = |k: u64, n: usize| ((h >> k) as usize) % n;
    let name = match h % 10 {
        // Xbase++ methods and C++ members, the long ones.
        0..=3 => format!("{}:{}{f}", CLASSES[pick(4, 8)], METHODS[pick(8, 8)]),
        4..=6 => format!(
            "{}{}{f}",
            CPP_PREFIXES[pick(4, 8)],
            METHODS[pick(8, 8)].to_lowercase()
        ),
        // Plain functions, the short ones.
        _ => format!("FN{f}"),
    };
    let mut name = name;
    // Lengths spread over 6 to 60 bytes: pad a few, cut none below the
    // number that keeps the names apart.
    while name.len() < 6 {
        name.push('_');
    }
    if name.len() > 60 {
        let keep = 60 - (f.to_string().len());
        let cut = (0..=keep)
            .rev()
            .find(|&i| name.is_char_boundary(i))
            .unwrap_or(0);
        name = format!("{}{f}", &name[..cut]);
    }
    name
}

/// xorshift64*: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A name index biased toward small ones (half the draws hit the first
    /// 1/16 of the names).
    fn name(&mut self, names: u32) -> u32 {
        let n = u64::from(names.max(1));
        let hot = (n / 16).max(1);
        if self.next() & 1 == 0 {
            self.below(hot) as u32
        } else {
            self.below(n) as u32
        }
    }
}

/// Counts what passes through, so writers stop at the size asked for.
struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A file of `spec` in memory (benches make it an input named "generated").
pub fn bytes(spec: Spec) -> Vec<u8> {
    let mut out = io::Cursor::new(Vec::new());
    write(spec, &mut out).expect("writing to memory does not fail");
    out.into_inner()
}

/// Writes a file of `spec` to `out` (seekable: a DBF header's record count
/// is filled in at the end, once known).
pub fn write(spec: Spec, out: impl Write + Seek) -> io::Result<()> {
    let mut w = Counted {
        inner: io::BufWriter::with_capacity(1 << 20, out),
        written: 0,
    };
    let real = spec.shape == Shape::Real;
    let names = || {
        (0..spec.names.max(1))
            .map(|f| name_text(f, spec.shape))
            .collect()
    };
    match spec.kind {
        Format::Deldbe if real => trace(spec, &mut w, RealDeldbe { names: names() })?,
        Format::Deldbe => trace(spec, &mut w, Deldbe)?,
        Format::Dbf => {
            let fields: &[_] = if real { &DBF_REAL_FIELDS } else { &DBF_FIELDS };
            dbf_header(&mut w, 0, fields)?;
            let mut t = Dbf {
                records: 0,
                names: real.then(names),
            };
            trace(spec, &mut w, &mut t)?;
            w.write_all(&[0x1A])?;
            w.inner.seek(SeekFrom::Start(4))?;
            w.inner.write_u32::<byteorder::LittleEndian>(
                u32::try_from(t.records).unwrap_or(u32::MAX),
            )?;
        }
        Format::Br => br(spec, &mut w, &names())?,
        Format::Plist => plist(spec, &mut w)?,
    }
    w.flush()
}

/// Writes one trace event: thread, time in ms, op, function index, line.
trait EventWriter {
    fn event<W: Write>(
        &mut self,
        w: &mut Counted<W>,
        e: (u32, f64, u8, u32, u32),
    ) -> io::Result<()>;
}

struct Deldbe;

impl EventWriter for Deldbe {
    fn event<W: Write>(
        &mut self,
        w: &mut Counted<W>,
        (thread, ms, op, f, line): (u32, f64, u8, u32, u32),
    ) -> io::Result<()> {
        if op == b'i' {
            writeln!(w, "{thread},{ms:.3},\"i\",\"FN{f:06}\",{line}")
        } else {
            writeln!(w, "{thread},{ms:.3},\"o\",\"FN{f:06}\"")
        }
    }
}

/// DELDBE as Xbase++ writes it for a real program: the name's text, and a
/// parameters column on every row (`""` for a call without any).
struct RealDeldbe {
    names: Vec<String>,
}

impl EventWriter for RealDeldbe {
    fn event<W: Write>(
        &mut self,
        w: &mut Counted<W>,
        (thread, ms, op, f, line): (u32, f64, u8, u32, u32),
    ) -> io::Result<()> {
        let name = &self.names[f as usize];
        let params = params_of(f, line);
        if op == b'i' {
            writeln!(w, "{thread},{ms:.3},\"i\",\"{name}\",{line},\"{params}\"")
        } else {
            writeln!(w, "{thread},{ms:.3},\"o\",\"{name}\",\"\"")
        }
    }
}

/// A call's parameters: none for most, a few values for some.
fn params_of(f: u32, line: u32) -> String {
    match (f ^ line) % 4 {
        0 => format!("'C{:06}',.T.,{}", f, line % 97),
        1 => format!("{}", line * 3),
        _ => String::new(),
    }
}

impl<T: EventWriter> EventWriter for &mut T {
    fn event<W: Write>(
        &mut self,
        w: &mut Counted<W>,
        e: (u32, f64, u8, u32, u32),
    ) -> io::Result<()> {
        (**self).event(w, e)
    }
}

/// Fields: THREAD N 4, TIMELINE N 14 3, OP C 1, FUNCTION C 20, LINENO N 6.
const DBF_FIELDS: [(&str, u8, u8, u8); 5] = [
    ("THREAD", b'N', 4, 0),
    ("TIMELINE", b'N', 14, 3),
    ("OP", b'C', 1, 0),
    ("FUNCTION", b'C', 20, 0),
    ("LINENO", b'N', 6, 0),
];

/// The real shape's: FUNCTION C 60, and PARAMS C 40 after the line.
const DBF_REAL_FIELDS: [(&str, u8, u8, u8); 6] = [
    ("THREAD", b'N', 4, 0),
    ("TIMELINE", b'N', 14, 3),
    ("OP", b'C', 1, 0),
    ("FUNCTION", b'C', 60, 0),
    ("LINENO", b'N', 6, 0),
    ("PARAMS", b'C', 40, 0),
];

fn dbf_header<W: Write>(w: &mut W, records: u32, fields: &[(&str, u8, u8, u8)]) -> io::Result<()> {
    let header_len = 32 + 32 * fields.len() as u16 + 1;
    let record = 1 + fields.iter().map(|f| u16::from(f.2)).sum::<u16>();
    w.write_all(&[0x03, 126, 11, 21])?;
    w.write_u32::<byteorder::LittleEndian>(records)?;
    w.write_u16::<byteorder::LittleEndian>(header_len)?;
    w.write_u16::<byteorder::LittleEndian>(record)?;
    w.write_all(&[0; 20])?;
    for &(name, kind, len, dec) in fields {
        let mut n = name.as_bytes().to_vec();
        n.resize(11, 0);
        w.write_all(&n)?;
        w.write_all(&[kind, 0, 0, 0, 0, len, dec])?;
        w.write_all(&[0; 14])?;
    }
    w.write_all(&[0x0D])
}

struct Dbf {
    records: u64,
    /// The real shape's names (a wider field and a PARAMS field); `None`:
    /// the current shape.
    names: Option<Vec<String>>,
}

impl EventWriter for Dbf {
    fn event<W: Write>(
        &mut self,
        w: &mut Counted<W>,
        (thread, ms, op, f, line): (u32, f64, u8, u32, u32),
    ) -> io::Result<()> {
        self.records += 1;
        let lineno = if op == b'i' {
            line.to_string()
        } else {
            String::new()
        };
        match &self.names {
            None => {
                let name = format!("FN{f:06}");
                write!(
                    w,
                    " {thread:>4}{ms:>14.3}{}{name:<20}{lineno:>6}",
                    op as char
                )
            }
            Some(names) => {
                let name = &names[f as usize];
                let params = if op == b'i' {
                    params_of(f, line)
                } else {
                    String::new()
                };
                write!(
                    w,
                    " {thread:>4}{ms:>14.3}{}{name:<60}{lineno:>6}{params:<40}",
                    op as char
                )
            }
        }
    }
}

/// One of the three functions `caller` calls: a fixed call graph, so the
/// distinct call paths stay as few as in a real program.
fn callee(caller: u32, which: u64, names: u32) -> u32 {
    let h = u64::from(caller)
        .wrapping_mul(0x9E37_79B9)
        .wrapping_add(which * 7919 + 1);
    (h % u64::from(names.max(1))) as u32
}

/// A random walk of calls and returns on four threads, until the size is
/// reached (every call still open is then returned from, so the trace is
/// complete).
fn trace<W: Write>(spec: Spec, w: &mut Counted<W>, mut out: impl EventWriter) -> io::Result<()> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let real = spec.shape == Shape::Real;
    let threads = if real { 8 } else { 4 };
    let mut stacks: Vec<Vec<u32>> = vec![Vec::new(); threads];
    let mut ms = 0.0;
    let reserve = 64 * 16 * 4;
    while w.written + reserve < spec.bytes {
        let t = rng.below(threads as u64) as usize;
        ms += (rng.below(50) + 1) as f64 / 1000.0;
        let depth = stacks[t].len();
        let call = depth == 0 || (depth < 12 && rng.below(100) < 60 - 6 * depth as u64);
        if call {
            let caller = stacks[t].last().copied();
            let f = match caller {
                Some(caller) => callee(caller, rng.below(3), spec.names),
                None => rng.name(spec.names),
            };
            // One call site per (caller, callee) in the current shape; in
            // the real one each callee is called from one of 24 lines.
            let mut line = (u64::from(f) * 131 + caller.map_or(0, u64::from)) % 900 + 1;
            if real {
                line += 1000 * rng.below(24);
            }
            stacks[t].push(f);
            out.event(w, (t as u32 + 1, ms, b'i', f, line as u32))?;
        } else {
            let f = stacks[t].pop().unwrap_or(0);
            out.event(w, (t as u32 + 1, ms, b'o', f, 0))?;
        }
    }
    for (t, stack) in stacks.iter_mut().enumerate() {
        while let Some(f) = stack.pop() {
            ms += 0.001;
            out.event(w, (t as u32 + 1, ms, b'o', f, 0))?;
        }
    }
    Ok(())
}

/// BR timed log: modules, then samples with a backtrace of 1–6 frames.
fn br<W: Write>(spec: Spec, w: &mut Counted<W>, names: &[String]) -> io::Result<()> {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let modules = 16u16;
    for m in 1..=modules {
        let name = format!("LIB\\MOD{m:02}.BR");
        w.write_u8(1)?;
        w.write_u16::<BigEndian>(m)?;
        w.write_u16::<BigEndian>(name.len() as u16)?;
        w.write_all(name.as_bytes())?;
    }
    while w.written + 512 < spec.bytes {
        // A root-first path through the fixed call graph; the sample record
        // is its leaf, the backtrace its callers from the leaf up.
        let mut path = vec![rng.name(spec.names)];
        for _ in 0..rng.below(6) {
            let f = callee(path[path.len() - 1], rng.below(3), spec.names);
            path.push(f);
        }
        let mut frames = path.iter().rev();
        if let Some(&leaf) = frames.next() {
            frame(w, &mut rng, leaf, &names[leaf as usize], 3)?;
        }
        w.write_u8(4)?;
        w.write_u64::<BigEndian>(rng.below(2_000_000) + 1000)?;
        for &f in frames {
            frame(w, &mut rng, f, &names[f as usize], 5)?;
        }
        w.write_u8(9)?;
        w.write_u8(6)?;
    }
    Ok(())
}

/// A sample (type 3) or backtrace (type 5) record and its name (type 7).
/// A BR function is defined in one program, so a name always comes with
/// the same module (a random module per frame would make each name 16
/// functions and nearly every sample a stack of its own, which no real
/// program does); the line varies.
fn frame<W: Write>(w: &mut W, rng: &mut Rng, f: u32, name: &str, kind: u8) -> io::Result<()> {
    w.write_u8(kind)?;
    w.write_u16::<BigEndian>((f % 16) as u16 + 1)?;
    w.write_u32::<BigEndian>(rng.below(2000) as u32 + 1)?;
    w.write_u8(rng.below(3) as u8)?;
    w.write_u8(7)?;
    w.write_u8(name.len() as u8)?;
    w.write_all(name.as_bytes())
}

/// PLIST /T: one function record per name, each with one stack.
fn plist<W: Write>(spec: Spec, w: &mut Counted<W>) -> io::Result<()> {
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    let n = spec.names.max(2);
    writeln!(w, "0\t1.10\tMicrosoft PLIST (profx generator)")?;
    writeln!(w, "1\t522\tProfile: Function timing")?;
    writeln!(w, "2\t{:.3}\t0.000\t{n}", f64::from(n) * 10.0)?;
    // The real shape: C++ members whose names share long prefixes
    // (namespaces, classes, template arguments), as MSVC decorates them
    // undecorated.
    let name = |f: u32| match spec.shape {
        Shape::Current => format!("Function_{f:07}(int, const char *)"),
        Shape::Real => {
            let h = u64::from(f).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
            let prefix = CPP_PREFIXES[(h % 8) as usize];
            let method = METHODS[((h >> 8) % 8) as usize].to_lowercase();
            format!("{prefix}{method}{f}(int, const char *)")
        }
    };
    for f in 1..n {
        let calls = rng.below(10_000) + 1;
        let excl = rng.below(5_000) as f64 / 1000.0;
        writeln!(
            w,
            "6\tgen.exe\tmod{:03}.obj\t{calls}\t{excl:.3}\t{:.3}\t{}",
            f % 500,
            excl * 2.0,
            name(f)
        )?;
        writeln!(w, "8\t1")?;
        writeln!(w, "9\t2\t{calls}\t{excl:.3}\t{excl:.3}")?;
        writeln!(w, "10\t{}", name(f / 2))?;
        writeln!(w, "10\t{}", name(f))?;
    }
    Ok(())
}

/// A profile made in memory (no file): `functions` functions with
/// summary numbers, as many lines and stacks, names of varied shape
/// (`Orders::PostInvoice17`, `lib/util.prg:Trim204`…). For benchmarks of
/// the app's panes, sort and search, where parsing is not the point.
pub fn profile(functions: u32) -> profx_model::Profile {
    use profx_model::{FuncSummary, ProfileBuilder, TimeValues};
    const WORDS: [&str; 16] = [
        "Orders", "Invoice", "Post", "Trim", "Parse", "Render", "Stock", "Query", "Index", "Print",
        "Customer", "Ledger", "Sort", "Open", "Close", "Report",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut b = ProfileBuilder::new("generated");
    b.begin_source("generated");
    let mut funcs = Vec::with_capacity(functions as usize);
    for i in 0..functions {
        let w = |r: u64| WORDS[(r % 16) as usize];
        let (a, c, d) = (rng.next(), rng.next(), rng.next());
        let name = match i % 3 {
            0 => format!("{}::{}{}{i}", w(a), w(c), w(d)),
            1 => format!("lib/{}.prg:{}{i}", w(a).to_lowercase(), w(c)),
            _ => format!("{}_{}", w(a).to_uppercase(), i),
        };
        let (name, module) = (b.intern(&name), b.intern(w(d)));
        let f = b.function(name, module);
        let exclusive = rng.below(1_000_000) as f64 / 1000.0;
        b.summary(
            f,
            FuncSummary {
                calls: Some(1 + rng.below(10_000)),
                hits_self: Some(rng.below(5000)),
                hits_total: Some(rng.below(50_000)),
                time: TimeValues {
                    elapsed_exclusive: Some(exclusive),
                    elapsed_inclusive: Some(exclusive + rng.below(1_000_000) as f64 / 100.0),
                    ..Default::default()
                },
            },
        );
        let line = b.line(module, i, Some(f));
        b.line_summary(line, Some(rng.below(1000)), Some(exclusive));
        funcs.push(f);
    }
    let mut frames = Vec::new();
    for _ in 0..functions {
        frames.clear();
        let depth = 2 + rng.below(5);
        frames.extend((0..depth).map(|_| funcs[rng.below(funcs.len() as u64) as usize]));
        let stack = b.stack(&frames);
        b.stack_summary(stack, Some(1 + rng.below(100)), None, None);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_load::{Input, KeepEvents, KeepStacks, LoadOptions, load_inputs};

    fn load(kind: Format, bytes: u64, names: u32) -> profx_model::Profile {
        load_chunked(kind, bytes, names, None)
    }

    fn load_chunked(
        kind: Format,
        bytes: u64,
        names: u32,
        chunk_bytes: Option<usize>,
    ) -> profx_model::Profile {
        let opts = LoadOptions {
            chunk_bytes,
            ..Default::default()
        };
        load_with(kind, bytes, names, &opts)
    }

    fn load_with(kind: Format, bytes: u64, names: u32, opts: &LoadOptions) -> profx_model::Profile {
        let mut out = std::io::Cursor::new(Vec::new());
        write(
            Spec {
                kind,
                bytes,
                names,
                shape: Shape::Current,
            },
            &mut out,
        )
        .expect("writes");
        let out = out.into_inner();
        if kind != Format::Plist {
            let size = out.len() as u64;
            assert!(
                size <= bytes && size > bytes * 9 / 10,
                "{kind:?}: {size} bytes"
            );
        }
        let input = Input::owned("generated", out);
        load_inputs(&[input], opts).expect("loads")
    }

    /// A trace that keeps only its count of events (what `report` asks
    /// for) has the same numbers and count as one that indexes them, and
    /// its events do not read back.
    #[test]
    fn counted_events_give_the_same_report() {
        for kind in [Format::Deldbe, Format::Dbf, Format::Br] {
            let load = |events| {
                let opts = LoadOptions {
                    events,
                    ..Default::default()
                };
                load_with(kind, 100_000, 200, &opts)
            };
            let (indexed, counted) = (load(KeepEvents::Indexed), load(KeepEvents::Counted));
            assert!(indexed.event_count() > 500, "{kind:?}");
            assert_eq!(indexed.event_count(), counted.event_count(), "{kind:?}");
            let json = profx_analysis::report::json::render;
            assert_eq!(json(&indexed), json(&counted), "{kind:?}");
            let (i, c) = (&indexed.packets()[0].events, &counted.packets()[0].events);
            assert!(i.get(7).is_some() && i.function(7).is_some(), "{kind:?}");
            assert!(c.get(7).is_none() && c.function(7).is_none(), "{kind:?}");
        }
    }

    /// A generated trace or log loaded without stacks (a report of
    /// functions or lines) has every other number of one loaded with them,
    /// to the bit.
    #[test]
    fn skipped_stacks_leave_every_other_number() {
        for kind in [Format::Deldbe, Format::Dbf, Format::Br] {
            let load = |stacks| {
                let opts = LoadOptions {
                    stacks,
                    ..Default::default()
                };
                load_with(kind, 300_000, 400, &opts)
            };
            let (kept, skipped) = (load(KeepStacks::Kept), load(KeepStacks::Skipped));
            assert!(kept.stacks().len() > 1000, "{kind:?}");
            assert_eq!(kept.functions(), skipped.functions(), "{kind:?}");
            assert_eq!(kept.lines(), skipped.lines(), "{kind:?}");
            assert_eq!(kept.totals, skipped.totals, "{kind:?}");
            assert_eq!(kept.event_count(), skipped.event_count(), "{kind:?}");
            assert!(skipped.stacks().is_empty(), "{kind:?}");
        }
    }

    #[test]
    fn generated_profile_has_every_kind_of_row() {
        let p = profile(3000);
        assert_eq!(p.functions().len(), 3000);
        assert_eq!(p.lines().len(), 3000);
        assert!(p.stacks().len() > 2900);
        assert!(p.warnings().is_empty());
    }

    /// The parallel path (many chunks, two parsers or more) and the one
    /// chunk path give the same profile, number for number.
    #[test]
    fn many_chunks_load_as_one() {
        // A BR sample is a whole backtrace, so the same bytes hold fewer.
        for (kind, events) in [
            (Format::Deldbe, 5000),
            (Format::Dbf, 5000),
            (Format::Br, 3000),
        ] {
            let one = load_chunked(kind, 300_000, 400, Some(usize::MAX));
            let many = load_chunked(kind, 300_000, 400, Some(4096));
            assert!(
                one.event_count() > events,
                "{kind:?}: {}",
                one.event_count()
            );
            assert_eq!(
                profx_analysis::report::json::render(&one),
                profx_analysis::report::json::render(&many),
                "{kind:?}"
            );
        }
    }

    fn load_real(kind: Format, bytes: u64, names: u32, opts: &LoadOptions) -> profx_model::Profile {
        let mut out = std::io::Cursor::new(Vec::new());
        let spec = Spec {
            kind,
            bytes,
            names,
            shape: Shape::Real,
        };
        write(spec, &mut out).expect("writes");
        load_inputs(&[Input::owned("generated", out.into_inner())], opts).expect("loads")
    }

    /// The realistic shape loads without a warning in every format, its
    /// names are 6 to 60 bytes (a PLIST's carry their signature), and a
    /// trace has eight threads and many call sites a caller.
    #[test]
    fn the_real_shape_loads_without_warnings() {
        for kind in [Format::Deldbe, Format::Dbf, Format::Br, Format::Plist] {
            let p = load_real(kind, 1_500_000, 400, &LoadOptions::default());
            assert!(
                p.warnings().is_empty(),
                "{kind:?}: {:?}",
                &p.warnings()[..1]
            );
            assert!(p.functions().len() > 50, "{kind:?}");
            for f in p.function_ids() {
                let n = p.function_name(f).len();
                let most = if kind == Format::Plist { 90 } else { 60 };
                assert!((6..=most).contains(&n), "{kind:?}: {}", p.function_name(f));
            }
            if matches!(kind, Format::Deldbe | Format::Dbf) {
                assert!(p.lines().len() > 4 * p.functions().len(), "{kind:?}");
            }
        }
    }

    /// The parameters column takes the fast reading of a DELDBE line, and
    /// it reads as the general parser does (`--columns` makes every line
    /// take the general one): the same functions, lines and totals.
    #[test]
    fn parameters_read_fast_as_the_general_parser_reads_them() {
        let fast = load_real(Format::Deldbe, 300_000, 400, &LoadOptions::default());
        let opts = LoadOptions {
            columns: Some("thread,time,op,call,line,params".into()),
            ..Default::default()
        };
        let general = load_real(Format::Deldbe, 300_000, 400, &opts);
        assert!(
            general.warnings().is_empty(),
            "{:?}",
            &general.warnings()[..1]
        );
        assert_eq!(fast.functions(), general.functions());
        assert_eq!(fast.lines(), general.lines());
        assert_eq!(fast.totals, general.totals);
        assert_eq!(fast.event_count(), general.event_count());
    }

    #[test]
    fn every_generated_format_loads_without_warnings() {
        for kind in [Format::Deldbe, Format::Dbf, Format::Br, Format::Plist] {
            let p = load(kind, 200_000, 300);
            assert!(
                p.warnings().is_empty(),
                "{kind:?}: {:?}",
                &p.warnings()[..1]
            );
            assert!(
                p.functions().len() > 50,
                "{kind:?}: {}",
                p.functions().len()
            );
        }
        // A BR name lives in one module: at most one function a name, and
        // a `(main)` in each of the 16 modules.
        let br = load(Format::Br, 200_000, 300);
        assert!(br.functions().len() <= 300 + 16, "{}", br.functions().len());
    }
}
