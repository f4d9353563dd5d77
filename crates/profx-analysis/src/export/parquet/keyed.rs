//! Texts written as keys into a dictionary the rows' maker built, not
//! looked up value by value: the `calls` table names a function on every
//! call and the `stacks` table on every frame, a few thousand names
//! millions of times. The parquet crate's dictionary encoder hashes and
//! compares each value on the writer's one thread, and written plain each
//! name is copied and compressed again; the maker knows each function's
//! key already (`FrameKeys`), so a column is its keys bit-packed beside a
//! dictionary page of the names.
//!
//! Hand-written, beside the crate's writer, because the crate has no public
//! encoder for keys given (its RLE/bit-packed encoder and codecs are public
//! only under its `experimental` feature, which brings arrow): what it
//! gains is in BENCHMARKS.md (issue 70). The pages are the format's own
//! (Parquet's Encodings.md: a `PLAIN` dictionary page, `RLE_DICTIONARY`
//! data pages v1), framed and placed by the crate (`SerializedPageWriter`,
//! `append_column`), and read back by the crate's reader in the tests
//! and by DuckDB in CI's check (`scripts/check_parquet.py`).

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, OffsetIndexBuilder, PageEncodingStats};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use profx_model::FuncId;
use rustc_hash::FxHashMap;

/// A text column's dictionary and each value's key in it.
#[derive(Debug, Default)]
pub(super) struct Keyed {
    /// The dictionary's entries as its page holds them (`PLAIN`: a 4-byte
    /// length, then the bytes).
    dict: Vec<u8>,
    entries: u32,
    keys: Vec<u32>,
}

impl Keyed {
    /// Adds `text` to the dictionary: its key. A text added twice has two
    /// keys (the makers add each once, `FrameKeys`).
    pub(super) fn add(&mut self, text: &[u8]) -> Result<u32> {
        let len = u32::try_from(text.len())
            .map_err(|_| ParquetError::General("a text of 4 GiB or more".into()))?;
        self.dict.extend_from_slice(&len.to_le_bytes());
        self.dict.extend_from_slice(text);
        let key = self.entries;
        self.entries += 1;
        Ok(key)
    }

    /// Whether `key` is one the dictionary gave.
    pub(super) fn has(&self, key: u32) -> bool {
        key < self.entries
    }

    /// A value: the text of `key`.
    pub(super) fn push(&mut self, key: u32) {
        self.keys.push(key);
    }

    pub(super) fn reserve(&mut self, n: usize) {
        self.keys.reserve(n);
    }

    pub(super) fn clear(&mut self) {
        self.dict.clear();
        self.entries = 0;
        self.keys.clear();
    }
}

/// Level entries a data page holds at most (a page ends on a row's start).
const PAGE_ENTRIES: usize = 1 << 20;

/// One column chunk of `keyed`'s values, with `defs` and `reps` levels
/// where the column has them (a list's items): a dictionary page, then
/// data pages, each compressed with Snappy; the bytes and what
/// `SerializedRowGroupWriter::append_column` needs of them.
pub(super) fn chunk(
    descr: &ColumnDescPtr,
    keyed: &Keyed,
    defs: Option<&[i16]>,
    reps: Option<&[i16]>,
) -> Result<(Bytes, ColumnCloseResult)> {
    let max_def = descr.max_def_level();
    let max_rep = descr.max_rep_level();
    let (defs, reps) = (defs.filter(|_| max_def > 0), reps.filter(|_| max_rep > 0));
    let refuse = |why: &str| Err(ParquetError::General(format!("{}: {why}", descr.path())));
    if (max_def > 0) != defs.is_some() || (max_rep > 0) != reps.is_some() {
        return refuse("its levels missing");
    }
    if let (Some(d), Some(r)) = (defs, reps)
        && d.len() != r.len()
    {
        return refuse("as many definition as repetition levels");
    }
    let entries = defs.or(reps).map_or(keyed.keys.len(), <[i16]>::len);
    let mut sink = TrackedWrite::new(Vec::new());
    let mut pages = SerializedPageWriter::new(&mut sink);
    let mut snappy = snap::raw::Encoder::new();
    let mut compressed = 0i64;
    let mut uncompressed = 0i64;
    let mut page = |pages: &mut SerializedPageWriter<'_, Vec<u8>>, body: &[u8], kind: Kind| {
        let buf = Bytes::from(
            snappy
                .compress_vec(body)
                .map_err(|e| ParquetError::External(Box::new(e)))?,
        );
        let page = match kind {
            Kind::Dictionary(n) => Page::DictionaryPage {
                buf,
                num_values: n,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            },
            Kind::Data(n) => Page::DataPage {
                buf,
                num_values: n,
                encoding: Encoding::RLE_DICTIONARY,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
        };
        let spec = pages.write_page(CompressedPage::new(page, body.len()))?;
        compressed += spec.compressed_size as i64;
        uncompressed += spec.uncompressed_size as i64;
        // Where the page lies in the chunk, and its bytes, header included
        // (the offset index's page location).
        let size = i32::try_from(spec.compressed_size)
            .map_err(|_| ParquetError::General("a page of 2 GiB".into()))?;
        Ok::<_, ParquetError>((spec.offset as i64, size))
    };
    let (dictionary_at, _) = page(&mut pages, &keyed.dict, Kind::Dictionary(keyed.entries))?;
    let width = bits(keyed.entries.saturating_sub(1)).max(1);
    let (def_width, rep_width) = (bits(max_def as u32), bits(max_rep as u32));
    let mut data_at = None;
    let mut data_pages = 0;
    let (mut at, mut key_at) = (0, 0);
    let mut body = Vec::new();
    let mut levels = Vec::new();
    let mut rows = 0u64;
    // Each data page's place and first row, as the crate's writer keeps
    // them for its own columns: a reader that selects rows reads only the
    // pages holding them.
    let mut index = OffsetIndexBuilder::new();
    while at < entries || data_pages == 0 {
        let end = page_end(at, entries, reps);
        body.clear();
        let rows_before = rows;
        if let Some(reps) = reps {
            let reps = &reps[at..end];
            rows += reps.iter().filter(|&&r| r == 0).count() as u64;
            with_length(&mut body, &mut levels, reps, rep_width);
        } else {
            rows += (end - at) as u64;
        }
        let mut values = end - at;
        if let Some(defs) = defs {
            let defs = &defs[at..end];
            values = defs.iter().filter(|&&d| d == max_def).count();
            with_length(&mut body, &mut levels, defs, def_width);
        }
        let keys = keyed
            .keys
            .get(key_at..key_at + values)
            .ok_or_else(|| ParquetError::General("fewer keys than the levels' values".into()))?;
        key_at += values;
        body.push(width);
        hybrid(keys, width, &mut body);
        let n = u32::try_from(end - at)
            .map_err(|_| ParquetError::General("a page of 2^32 values".into()))?;
        let (offset, size) = page(&mut pages, &body, Kind::Data(n))?;
        index.append_offset_and_size(offset, size);
        index.append_row_count((rows - rows_before) as i64);
        data_at.get_or_insert(offset);
        data_pages += 1;
        at = end;
    }
    if key_at != keyed.keys.len() {
        return Err(ParquetError::General(
            "more keys than the levels' values".into(),
        ));
    }
    pages.close()?;
    let metadata = ColumnChunkMetaData::builder(descr.clone())
        .set_compression(Compression::SNAPPY)
        .set_encodings(vec![
            Encoding::PLAIN,
            Encoding::RLE,
            Encoding::RLE_DICTIONARY,
        ])
        .set_page_encoding_stats(vec![
            PageEncodingStats {
                page_type: PageType::DICTIONARY_PAGE,
                encoding: Encoding::PLAIN,
                count: 1,
            },
            PageEncodingStats {
                page_type: PageType::DATA_PAGE,
                encoding: Encoding::RLE_DICTIONARY,
                count: data_pages,
            },
        ])
        .set_total_compressed_size(compressed)
        .set_total_uncompressed_size(uncompressed)
        .set_num_values(entries as i64)
        .set_dictionary_page_offset(Some(dictionary_at))
        .set_data_page_offset(data_at.unwrap_or(dictionary_at))
        .build()?;
    let bytes = Bytes::from(sink.into_inner()?);
    let close = ColumnCloseResult {
        bytes_written: bytes.len() as u64,
        rows_written: rows,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: Some(index.build()),
    };
    Ok((bytes, close))
}

enum Kind {
    Dictionary(u32),
    Data(u32),
}

/// Where the page from `at` ends: `PAGE_ENTRIES` on, moved back to a row's
/// start when the column repeats, or on past a row longer than a page (a
/// row never spans two pages).
fn page_end(at: usize, entries: usize, reps: Option<&[i16]>) -> usize {
    let end = (at + PAGE_ENTRIES).min(entries);
    match reps {
        Some(reps) if end < entries => (at + 1..=end)
            .rev()
            .find(|&i| reps[i] == 0)
            .or_else(|| (end..entries).find(|&i| reps[i] == 0))
            .unwrap_or(entries),
        _ => end,
    }
}

/// Levels as a v1 data page holds them: their hybrid encoding's length
/// (4 bytes), then it.
fn with_length(body: &mut Vec<u8>, scratch: &mut Vec<u32>, levels: &[i16], width: u8) {
    scratch.clear();
    scratch.extend(levels.iter().map(|&l| u32::from(l.unsigned_abs())));
    let start = body.len();
    body.extend_from_slice(&[0; 4]);
    hybrid(scratch, width, body);
    let len = (body.len() - start - 4) as u32;
    body[start..start + 4].copy_from_slice(&len.to_le_bytes());
}

/// Bits that hold `n`.
fn bits(n: u32) -> u8 {
    (32 - n.leading_zeros()) as u8
}

/// Bit-packed groups a run holds at most (a one-byte header, as other
/// writers keep it).
const MAX_GROUPS: usize = 63;

/// Appends `values`, each below 2^`width`, in Parquet's RLE/bit-packed
/// hybrid encoding: a run of 8 or more equal values as one RLE run, the
/// others bit-packed 8 at a time (the last group padded with zeros).
fn hybrid(values: &[u32], width: u8, out: &mut Vec<u8>) {
    let n = values.len();
    let (mut i, mut packed_from, mut groups) = (0, 0, 0);
    while i < n {
        let v = values[i];
        let run = values[i..].iter().take_while(|&&x| x == v).count();
        if run >= 8 {
            pack(&values[packed_from..], groups, width, out);
            varint((run as u64) << 1, out);
            let bytes = usize::from(width).div_ceil(8);
            out.extend_from_slice(&v.to_le_bytes()[..bytes]);
            i += run;
            (packed_from, groups) = (i, 0);
            continue;
        }
        groups += 1;
        i += 8;
        if groups == MAX_GROUPS {
            pack(&values[packed_from..], groups, width, out);
            (packed_from, groups) = (i, 0);
        }
    }
    pack(&values[packed_from.min(n)..], groups, width, out);
}

/// One bit-packed run of the first `groups` × 8 of `values` (zeros past
/// their end), least significant bit first.
fn pack(values: &[u32], groups: usize, width: u8, out: &mut Vec<u8>) {
    if groups == 0 {
        return;
    }
    varint(((groups as u64) << 1) | 1, out);
    let (mut acc, mut held) = (0u64, 0u8);
    for k in 0..groups * 8 {
        acc |= u64::from(values.get(k).copied().unwrap_or(0)) << held;
        held += width;
        while held >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            held -= 8;
        }
    }
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Each function's keys in a batch's two dictionaries, its name's and its
/// module's, added the first time a row names it; equal texts share a key.
/// Reset with the batch when a new one takes its place.
#[derive(Debug, Default)]
pub(super) struct FrameKeys<'p> {
    by_function: Vec<Option<[u32; 2]>>,
    seen: [FxHashMap<&'p str, u32>; 2],
}

impl<'p> FrameKeys<'p> {
    /// `f`'s keys, `texts` its name and module, added through `add` (a
    /// text and which of the two) the first time.
    pub(super) fn of<E>(
        &mut self,
        f: FuncId,
        texts: impl FnOnce() -> [&'p str; 2],
        mut add: impl FnMut(usize, &str) -> std::result::Result<u32, E>,
    ) -> std::result::Result<[u32; 2], E> {
        let i = f.index();
        if let Some(Some(keys)) = self.by_function.get(i) {
            return Ok(*keys);
        }
        let mut keys = [0; 2];
        for (k, text) in texts().into_iter().enumerate() {
            keys[k] = match self.seen[k].get(text) {
                Some(&key) => key,
                None => {
                    let key = add(k, text)?;
                    self.seen[k].insert(text, key);
                    key
                }
            };
        }
        if self.by_function.len() <= i {
            self.by_function.resize(i + 1, None);
        }
        self.by_function[i] = Some(keys);
        Ok(keys)
    }

    /// Forgets every key (the batch they were of is written).
    pub(super) fn reset(&mut self) {
        self.by_function.clear();
        self.seen.iter_mut().for_each(FxHashMap::clear);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoder of the hybrid encoding written from Encodings.md, apart
    /// from the encoder.
    fn decode(mut bytes: &[u8], width: u8, n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        while out.len() < n {
            let mut header = 0u64;
            let mut shift = 0;
            loop {
                let b = bytes[0];
                bytes = &bytes[1..];
                header |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
            }
            if header & 1 == 0 {
                let run = (header >> 1) as usize;
                let w = usize::from(width).div_ceil(8);
                let mut v = [0u8; 4];
                v[..w].copy_from_slice(&bytes[..w]);
                bytes = &bytes[w..];
                out.extend(std::iter::repeat_n(u32::from_le_bytes(v), run));
            } else {
                let count = (header >> 1) as usize * 8;
                let mut bit = 0usize;
                for _ in 0..count {
                    let mut v = 0u32;
                    for b in 0..usize::from(width) {
                        let at = bit + b;
                        v |= u32::from((bytes[at / 8] >> (at % 8)) & 1) << b;
                    }
                    bit += usize::from(width);
                    out.push(v);
                }
                bytes = &bytes[count * usize::from(width) / 8..];
            }
        }
        assert!(bytes.is_empty(), "{} bytes left", bytes.len());
        out.truncate(n);
        out
    }

    proptest::proptest! {
        /// What the encoder writes decodes to its values: runs long and
        /// short, at every width, over many groups.
        #[test]
        fn hybrid_decodes_to_its_values(
            width in 1u8..=32,
            runs in proptest::collection::vec((0u32..u32::MAX, 1usize..40), 0..200),
        ) {
            let mask = if width == 32 { u32::MAX } else { (1 << width) - 1 };
            let values: Vec<u32> = runs
                .iter()
                .flat_map(|&(v, n)| std::iter::repeat_n(v & mask, n))
                .collect();
            let mut out = Vec::new();
            hybrid(&values, width, &mut out);
            proptest::prop_assert_eq!(decode(&out, width, values.len()), values);
        }
    }

    /// A list of texts: a column with both levels.
    const LIST: &str = "message t { required group c (LIST) { repeated group list { required binary element (UTF8); } } }";

    /// `rows` (each a list of texts) written to a one-column file: by
    /// `chunk` from keys, or by the crate's own writer from the texts;
    /// read back by the crate's reader, a row as it shows one.
    fn round_trip(rows: &[Vec<String>], list: bool, by_keys: bool) -> Vec<String> {
        use parquet::data_type::{ByteArray, ByteArrayType};
        use parquet::file::properties::WriterProperties;
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::file::writer::SerializedFileWriter;
        use std::sync::Arc;
        let message = match list {
            true => LIST,
            false => "message t { required binary c (UTF8); }",
        };
        let schema = Arc::new(parquet::schema::parser::parse_message_type(message).unwrap());
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        let mut file = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).unwrap();
        let (mut defs, mut reps, mut texts) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            for (i, t) in row.iter().enumerate() {
                defs.push(1);
                reps.push(i16::from(i > 0));
                texts.push(t.as_str());
            }
            if row.is_empty() {
                defs.push(0);
                reps.push(0);
            }
        }
        let (defs, reps) = match list {
            true => (Some(defs.as_slice()), Some(reps.as_slice())),
            false => (None, None),
        };
        let mut group = file.next_row_group().unwrap();
        if by_keys {
            let mut keyed = Keyed::default();
            let mut seen: FxHashMap<&str, u32> = FxHashMap::default();
            for t in &texts {
                let key = match seen.get(t) {
                    Some(&k) => k,
                    None => {
                        let k = keyed.add(t.as_bytes()).unwrap();
                        seen.insert(t, k);
                        k
                    }
                };
                keyed.push(key);
            }
            let descr = file_descr(message);
            let (bytes, close) = chunk(&descr, &keyed, defs, reps).unwrap();
            group.append_column(&bytes, close).unwrap();
        } else {
            let mut column = group.next_column().unwrap().unwrap();
            let values: Vec<ByteArray> = texts.iter().map(|t| ByteArray::from(*t)).collect();
            column
                .typed::<ByteArrayType>()
                .write_batch(&values, defs, reps)
                .unwrap();
            column.close().unwrap();
        }
        group.close().unwrap();
        let bytes = Bytes::from(file.into_inner().unwrap());
        let reader = SerializedFileReader::new(bytes).unwrap();
        reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect()
    }

    fn file_descr(message: &str) -> ColumnDescPtr {
        let t = parquet::schema::parser::parse_message_type(message).unwrap();
        parquet::schema::types::SchemaDescriptor::new(std::sync::Arc::new(t)).column(0)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A column written from keys reads back as the crate's own writer's
        /// of the same texts: lists empty and long, names repeated in runs
        /// and not, dictionaries of one entry and of hundreds.
        #[test]
        fn keys_read_back_as_the_crates_own_column(
            rows in proptest::collection::vec(
                proptest::collection::vec((0u32..300, 1usize..12), 0..8),
                1..200,
            ),
            list in proptest::bool::ANY,
            names in 1u32..300,
        ) {
            let rows: Vec<Vec<String>> = rows
                .iter()
                .map(|row| {
                    row.iter()
                        .flat_map(|&(n, times)| std::iter::repeat_n(format!("f{}", n % names), times))
                        .collect()
                })
                // A required column has one text a row.
                .map(|row: Vec<String>| match list {
                    true => row,
                    false => vec![row.first().cloned().unwrap_or_default()],
                })
                .collect();
            let ours = round_trip(&rows, list, true);
            proptest::prop_assert_eq!(ours.len(), rows.len());
            proptest::prop_assert_eq!(ours, round_trip(&rows, list, false));
        }
    }

    /// Pages split on rows: a column of more level entries than a page
    /// holds reads back whole.
    #[test]
    fn a_column_of_several_pages_reads_back() {
        let rows: Vec<Vec<String>> = (0..PAGE_ENTRIES / 3 + 100)
            .map(|i| (0..i % 7).map(|k| format!("n{}", (i + k) % 500)).collect())
            .collect();
        let ours = round_trip(&rows, true, true);
        assert_eq!(ours, round_trip(&rows, true, false));
    }

    /// The offset index names every data page, in order, back to back
    /// after the dictionary page, each with the row it starts on.
    #[test]
    fn the_offset_index_is_the_pages() {
        let message = LIST;
        let (mut keyed, mut defs, mut reps) = (Keyed::default(), Vec::new(), Vec::new());
        let key = keyed.add(b"only").unwrap();
        let mut starts = Vec::new();
        for row in 0..PAGE_ENTRIES {
            starts.push(reps.len());
            for i in 0..row % 5 {
                keyed.push(key);
                defs.push(1);
                reps.push(i16::from(i > 0));
            }
            if row % 5 == 0 {
                defs.push(0);
                reps.push(0);
            }
        }
        let descr = file_descr(message);
        let (bytes, close) = chunk(&descr, &keyed, Some(&defs), Some(&reps)).unwrap();
        let pages = close.offset_index.unwrap().page_locations;
        assert!(pages.len() >= 3, "{}", pages.len());
        let data_at = close.metadata.data_page_offset();
        assert!(data_at > close.metadata.dictionary_page_offset().unwrap());
        assert_eq!(pages[0].offset, data_at);
        assert_eq!(pages[0].first_row_index, 0);
        for two in pages.windows(2) {
            assert_eq!(
                two[1].offset,
                two[0].offset + i64::from(two[0].compressed_page_size)
            );
        }
        // Each page from the row its first entry starts (pages end where
        // `page_end` says).
        let (mut at, mut firsts) = (0, Vec::new());
        while at < reps.len() {
            firsts.push(starts.partition_point(|&s| s < at) as i64);
            at = page_end(at, reps.len(), Some(&reps));
        }
        let indexed: Vec<i64> = pages.iter().map(|p| p.first_row_index).collect();
        assert_eq!(indexed, firsts);
        let last = pages.last().unwrap();
        assert_eq!(
            last.offset + i64::from(last.compressed_page_size),
            bytes.len() as i64
        );
        assert_eq!(close.rows_written, PAGE_ENTRIES as u64);
    }

    /// A column whose levels are missing, or disagree, is refused, not
    /// written with none.
    #[test]
    fn levels_missing_are_refused() {
        let message = LIST;
        let descr = file_descr(message);
        let mut keyed = Keyed::default();
        let key = keyed.add(b"a").unwrap();
        keyed.push(key);
        assert!(chunk(&descr, &keyed, None, Some(&[0])).is_err());
        assert!(chunk(&descr, &keyed, Some(&[1]), None).is_err());
        assert!(chunk(&descr, &keyed, Some(&[1, 0]), Some(&[0])).is_err());
        assert!(chunk(&descr, &keyed, Some(&[1]), Some(&[0])).is_ok());
    }

    #[test]
    fn a_page_ends_where_a_row_starts() {
        let reps: Vec<i16> = (0..PAGE_ENTRIES + 10)
            .map(|i| i16::from(i % 7 != 0))
            .collect();
        let end = page_end(0, reps.len(), Some(&reps));
        assert_eq!(reps[end], 0);
        assert!(end <= PAGE_ENTRIES && end > PAGE_ENTRIES - 7);
        assert_eq!(page_end(0, reps.len(), None), PAGE_ENTRIES);
        assert_eq!(page_end(end, reps.len(), Some(&reps)), reps.len());
        // One row longer than a page is one page.
        let mut long = vec![1i16; PAGE_ENTRIES + 10];
        long[0] = 0;
        long.push(0);
        long.push(1);
        assert_eq!(page_end(0, long.len(), Some(&long)), PAGE_ENTRIES + 10);
    }
}
