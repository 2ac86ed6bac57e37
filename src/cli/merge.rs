//! `zebra merge DIR... --out DIR`: the shards of a series put back together (see
//! `series::merge`), with the series' summary and each shard's figures; `--status`: how
//! far the shards are.

use super::args::MergeArgs;
use super::failure::Failure;
use crate::series::merge::{self, MergeError};

pub(super) fn run(args: MergeArgs) -> Result<(), Failure> {
    let failed = |e: MergeError| match e {
        MergeError::Refused(message) => Failure::Usage(message),
        MergeError::Disk(e) => Failure::Run(e.to_string()),
    };
    let shards = merge::find_shards(&args.dirs).map_err(failed)?;
    let Some(out) = args.out else {
        let status = merge::status(&shards).map_err(failed)?;
        if args.json {
            out!(
                "{}",
                serde_json::to_string(&status).expect("the status serializes")
            );
        } else {
            out!("{}", status.text().trim_end());
        }
        return Ok(());
    };
    let merged = merge::merge(&shards, &out).map_err(failed)?;
    if args.json {
        let summary = crate::series::Summary::of(&merged.config, &merged.outcome);
        let value = serde_json::json!({
            "identity": merged.identity,
            "out": out,
            "summary": summary,
            "shards": merged.shards,
        });
        out!("{value}");
    } else {
        out!("{}", merge::text(&merged).trim_end());
    }
    Ok(())
}
