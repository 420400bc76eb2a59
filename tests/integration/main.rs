//! The tests through the real binary and the public API, in one crate so that the library and
//! its embedded tables are linked once: a module a subject. The tests that change what a whole
//! process shares (its allocator, the cache folder, files it writes then runs) are crates of
//! their own beside this one.

#[path = "../common/mod.rs"]
mod common;

mod any_game;
mod audit;
mod audit_estimate;
mod audit_games;
mod audit_large;
mod board;
mod bot_sources;
mod cli;
mod cli_batch;
mod conventions;
mod destination;
mod display;
mod docs;
mod export;
mod export_cached;
mod external;
mod external_processes;
mod external_protocol;
mod formats;
mod history_budget;
mod layout;
mod losing_games;
mod losing_games_walk;
mod map;
mod matchup;
mod matchup_rogues;
mod memory_limit;
mod memoryless;
mod mistakes;
mod mnk;
mod mnk_exhaustive;
mod newcomer;
mod output;
mod pipeline;
mod play;
mod play_other_games;
mod quoting;
mod recheck;
mod recheck_match;
mod result_line;
mod review;
mod serve;
mod simulate;
mod solver;
mod symmetric;
mod tableless;
mod text;
mod tiers_progress;
mod worst_case;
mod write_failures;
