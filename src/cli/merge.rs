//! `zebra merge DIR... --out DIR`: the shards of a series put back together (see
//! `series::merge`), with the series' summary and each shard's figures.

use super::args::MergeArgs;
use super::failure::Failure;
use crate::series::merge::{self, MergeError};

pub(super) fn run(args: MergeArgs) -> Result<(), Failure> {
    let failed = |e: MergeError| match e {
        MergeError::Refused(message) => Failure::Usage(message),
        MergeError::Disk(e) => Failure::Run(e.to_string()),
    };
    let shards = merge::find_shards(&args.dirs).map_err(failed)?;
    let merged = merge::merge(&shards, &args.out).map_err(failed)?;
    if args.json {
        let summary = crate::series::Summary::of(&merged.config, &merged.outcome);
        let value = serde_json::json!({
            "identity": merged.identity,
            "out": args.out,
            "summary": summary,
            "shards": merged.shards,
        });
        out!("{value}");
    } else {
        out!("{}", merge::text(&merged).trim_end());
    }
    Ok(())
}
