//! The threads list (model.md § Queries): each thread of a trace with its
//! span, busy time, events, calls and heaviest function. The trace feed
//! counts the first five as it loads (`Profile::threads`); the heaviest
//! function is read from the calls in time order where the profile keeps
//! them (`Profile::timeline`: every trace up to 64 MiB, larger ones loaded
//! with `--timeline`), as a thread's own exclusive times are nowhere else.

use profx_model::{FuncId, Profile, ThreadInfo};

/// One row of the threads list (a row of `Table::Threads`, whose columns
/// are `columns::ThreadColumn`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreadRow {
    /// What the trace feed counted.
    pub info: ThreadInfo,
    /// The function with the most exclusive time on the thread, and that
    /// time; `None` where the profile keeps no time order, or the thread
    /// called nothing.
    pub heaviest: Option<(FuncId, f64)>,
}

/// The threads list of `p`, in the order the threads first appear.
pub fn thread_rows(p: &Profile) -> Vec<ThreadRow> {
    let heaviest = heaviest(p);
    p.threads()
        .iter()
        .enumerate()
        .map(|(i, t)| ThreadRow {
            info: *t,
            heaviest: heaviest.get(i).copied().flatten(),
        })
        .collect()
}

/// Each timeline thread's heaviest function: the time between a thread's
/// consecutive marks belongs to the call on top of its stack then.
fn heaviest(p: &Profile) -> Vec<Option<(FuncId, f64)>> {
    let Some(tl) = p.timeline() else {
        return Vec::new();
    };
    let n = tl.threads.len();
    let mut stacks: Vec<Vec<FuncId>> = vec![Vec::new(); n];
    let mut last: Vec<f64> = vec![0.0; n];
    let mut own: Vec<rustc_hash::FxHashMap<FuncId, f64>> = vec![Default::default(); n];
    for m in &tl.marks {
        let t = m.thread as usize;
        let (Some(stack), Some(at)) = (stacks.get_mut(t), last.get_mut(t)) else {
            continue;
        };
        if let Some(&top) = stack.last()
            && tl.timed
        {
            *own[t].entry(top).or_default() += (m.at - *at).max(0.0);
        }
        *at = m.at;
        match m.open() {
            true => stack.push(m.func()),
            false => {
                stack.pop();
            }
        }
    }
    own.into_iter()
        .map(|o| {
            o.into_iter()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        })
        .collect()
}
