//! The verdict's rules in the order they are applied, the thresholds that fire them and the
//! lever of each (see [`super`] for the rules in words).

/// KV use (max or p99, a fraction) at or above which a level is `kv-bound`.
pub const KV_BOUND_AT: f64 = 0.90;
/// Running mean ÷ `max_num_seqs` at or above which the batch cap binds (`capped`).
pub const CAPPED_AT: f64 = 0.95;
/// Mean requests waiting at or above which a level is `queueing`.
pub const QUEUE_AT: f64 = 1.0;
/// KV use max below which a queueing level is compute-bound.
pub const COMPUTE_BOUND_BELOW: f64 = 0.5;
/// Running mean ÷ the level's concurrency or `max_num_seqs` below which the batch is
/// `not-filled` (ML.ENERGY's toolkit drops such runs).
pub const NOT_FILLED_BELOW: f64 = 0.85;
/// Served ÷ offered request rate below which a request-rate level is `overloaded`.
pub const OVERLOADED_BELOW: f64 = 0.95;
/// TTFT p50 ÷ the lowest level's at or above which a level without server signals queues.
pub const TTFT_RISE: f64 = 3.0;
/// Rise of output tok/s per GPU over the level below under which throughput is flat.
pub const FLAT_BELOW: f64 = 0.05;

/// A rule of the verdict, in the order they are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// 1: the KV cache is (nearly) full, or requests were preempted.
    KvBound,
    /// 2: the batch cap binds.
    Capped,
    /// 3: requests wait.
    Queueing,
    /// 4: the batch stays below its cap.
    NotFilled,
    /// 5: a request-rate level served below its offered rate.
    Overloaded,
    /// 6: from the client curve alone, TTFT climbs while throughput is flat.
    QueueingFromLatency,
    /// None of the above.
    Headroom,
}

impl Rule {
    /// Every rule, in order.
    pub const ALL: [Rule; 7] = [
        Rule::KvBound,
        Rule::Capped,
        Rule::Queueing,
        Rule::NotFilled,
        Rule::Overloaded,
        Rule::QueueingFromLatency,
        Rule::Headroom,
    ];

    /// The hook value (`data-verdict`) and the JSON's: `kv-bound`, `capped`, `queueing`,
    /// `not-filled`, `overloaded`, `queueing-from-latency`, `headroom`.
    pub fn key(self) -> &'static str {
        match self {
            Rule::KvBound => "kv-bound",
            Rule::Capped => "capped",
            Rule::Queueing => "queueing",
            Rule::NotFilled => "not-filled",
            Rule::Overloaded => "overloaded",
            Rule::QueueingFromLatency => "queueing-from-latency",
            Rule::Headroom => "headroom",
        }
    }

    /// What moves a level held by this rule.
    pub fn lever(self) -> Lever {
        match self {
            Rule::KvBound => Lever::MoreKvMemory,
            Rule::Capped => Lever::HigherMaxNumSeqs,
            Rule::Queueing | Rule::QueueingFromLatency => Lever::ReplicaOrBatchedTokens,
            Rule::NotFilled => Lever::MoreClientLoad,
            Rule::Overloaded => Lever::AnotherReplica,
            Rule::Headroom => Lever::Nothing,
        }
    }
}

/// What moves a level: the lever of the first rule that holds there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lever {
    /// More KV memory per replica (FP8 KV cache, more GPUs per replica, a shorter
    /// `max_model_len`, KV offload).
    MoreKvMemory,
    /// A higher `max_num_seqs`, while KV use leaves room.
    HigherMaxNumSeqs,
    /// Another replica or a larger `max_num_batched_tokens`.
    ReplicaOrBatchedTokens,
    /// Nothing on the server: the client or the arrivals keep the batch below its cap.
    MoreClientLoad,
    /// Another replica: the arrivals are more than one serves.
    AnotherReplica,
    /// None needed.
    Nothing,
}

impl Lever {
    /// The JSON's value: `more-kv-memory`, `higher-max-num-seqs`, `replica-or-batched-tokens`,
    /// `more-client-load`, `another-replica`, `none`.
    pub fn key(self) -> &'static str {
        match self {
            Lever::MoreKvMemory => "more-kv-memory",
            Lever::HigherMaxNumSeqs => "higher-max-num-seqs",
            Lever::ReplicaOrBatchedTokens => "replica-or-batched-tokens",
            Lever::MoreClientLoad => "more-client-load",
            Lever::AnotherReplica => "another-replica",
            Lever::Nothing => "none",
        }
    }
}
