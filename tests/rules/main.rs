//! Unit tests of the rules engine, one module per group of rule sections. Every test
//! names the section (or ruling, `R<n>` in protocol/RULES.md) it checks, and builds its
//! positions from text diagrams.

mod ball_carrier;
mod cases;
mod clocks;
mod edition2;
mod edition3;
mod edition3_questions;
mod errors;
mod field;
mod formation;
mod motion;
mod movement;
mod penalties;
mod scoring;
mod snap;
mod structure;
mod support;
mod throwing;
