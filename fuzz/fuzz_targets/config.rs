//! A bot config file (TOML, then the same bytes as JSON) and a series.json: read and
//! validated as `zebra match` does, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_referee::series::config::{read_config, validate_bots};

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("zebra-fuzz-config-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    for name in ["bots.toml", "bots.json"] {
        let path = dir.join(name);
        if std::fs::write(&path, data).is_ok() {
            if let Ok(bots) = read_config(&path) {
                let _ = validate_bots(&bots);
                for b in &bots {
                    let _ = b.odds();
                    let _ = zebra_referee::sandbox::Settings::default().limits_for(&b.limits);
                }
            }
        }
    }
    if std::fs::write(dir.join("series.json"), data).is_ok() {
        let _ = zebra_referee::series::disk::load_series(&dir);
    }
});
