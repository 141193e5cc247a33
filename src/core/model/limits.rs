//! Every limit on sizes and counts, each with its reason: what an input may hold, what a link
//! may carry, what is drawn. They bound time and memory on hostile input; a value over one is
//! named, never silently cut.

// Imports.

/// Most rows one import keeps: more would not be a benchmark sweep, and drawing them would
/// freeze the page. Parsers stop reading rows once this many are kept.
pub const MAX_ROWS: usize = 2_000;

/// Most sweeps one import keeps.
pub const MAX_SWEEPS: usize = 1_000;

/// Largest file one import reads, bytes (checked before it is parsed).
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

/// Largest set of files one import reads together, bytes.
pub const MAX_IMPORT_BYTES: usize = 64 * 1024 * 1024;

/// Files larger than this, bytes, that start like JSON are read as a stream ([`crate::core::import::streams`]).
pub const STREAM_ABOVE_BYTES: usize = 4 * 1024 * 1024;

/// Bytes of a large file read to tell whether it is read as a stream (its start, past a byte
/// order mark and white space).
pub const STREAM_HEAD_BYTES: usize = 4096;

/// Largest files read as a stream in one import, bytes, each and together (2 GiB).
pub const MAX_STREAMED_BYTES: usize = 1 << 31;

/// Longest text a field keeps (model, GPU, labels), characters; longer is cut, and said.
pub const MAX_TEXT_CHARS: usize = 200;

/// Most problems listed one by one; the rest are counted per kind and key.
pub const MAX_LISTED_PROBLEMS: usize = 20;

/// Most groups of problems counted apart ("and N more like these"); the rest count together.
pub const MAX_PROBLEM_GROUPS: usize = 10;

/// Largest level and throughput accepted (anything above is a unit or parsing mistake).
pub const MAX_MAGNITUDE: f64 = 1e9;

// Streamed files.

/// The most a streamed file may keep besides its folded per-request arrays, bytes (64 MiB).
pub const MAX_STREAMED_KEPT_BYTES: usize = 64 * 1024 * 1024;

/// The longest string a stream may hold, bytes (64 MiB): serde_json holds a string whole before
/// it can be counted, so a longer one ends the read here, before it is held.
pub const MAX_STRING_BYTES: usize = 64 * 1024 * 1024;

// Figures.

/// Largest value a figure keeps (a latency in ms, power in W, J, tokens, req/s): anything
/// larger is a unit or parsing mistake, shown as "not reported".
pub const MAX_FIGURE: f64 = 1e9;

/// Smallest value a figure keeps (as [`MAX_FIGURE`]): below it a value is no measurement (a
/// power of 1e-320 W made "5.00e-315 J/token"), as a throughput below 1e-6 tok/s is out of
/// range; shown as "not reported".
pub const MIN_FIGURE: f64 = 1e-6;

// Share links.

/// Longest link this page will make, in bytes: longer ones break in chat tools and proxies.
pub const MAX_LINK_BYTES: usize = 8 * 1024;

/// Largest decompressed payload accepted from a link (a bound against deflate bombs).
pub const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

// Stored imports.

/// Largest import (its files' text) kept in local storage, bytes: browsers give an origin about
/// 5 MB there, so a larger import is used in its visit and not stored (and the page says so).
pub const MAX_STORED_BYTES: usize = 4 * 1024 * 1024;

// The scenario (URL parameters).

/// Largest target or limit accepted, in its unit: 1000 / MIN_VALUE, so a value converted
/// between tok/s and ms stays in range.
pub const MAX_VALUE: f64 = 1_000_000.0;

/// Most tail limits a link may set (more make the question unreadable).
pub const MAX_LIMITS: usize = 8;

/// Most values of a load over time (URL `load`): a week by the minute.
pub const MAX_LOAD_VALUES: usize = 10_080;

/// Most characters the page's load field reads: 64 for each of the most values a load holds and
/// for a header row (a CSV row `2026-12-04T13:00:00.000+05:30,999999999.5` is 42). A longer
/// text is not read, nor even copied: it holds more than a load can.
pub const MAX_LOAD_FIELD_CHARS: usize = 64 * (MAX_LOAD_VALUES + 1);

/// Most parameters read from a link: a scenario has about a dozen; the rest of a longer link is
/// named in one message and not read (reading stays linear and the messages few).
pub const MAX_PARAMS: usize = 64;

/// At most this many entries of URL `price` are read (a data file holds a few GPU types).
pub const MAX_PRICES: usize = 64;

// Drawing.

/// Most points of one series drawn as points (each focusable, with its own text): a series
/// with more is drawn as its full line plus this many points, evenly spaced, so drawing grows
/// with what is shown, not with the sweep's size.
pub const MAX_DRAWN_POINTS: usize = 60;

/// Most deployments drawn at once: drawing grows with what is shown, not with the sweeps a
/// model has.
pub const MAX_SERIES: usize = 12;

/// At most this many requests are drawn in one scatter; past it, every miss is drawn and every
/// k-th good request (the caption says which).
pub const MAX_DRAWN_REQUESTS: usize = 20_000;
