//! Unit tests of the rules engine, one module per group of rule sections. Every test
//! names the section (or ruling, `R<n>` in protocol/RULES.md) it checks, and builds its
//! positions from text diagrams.

mod support;
mod field;
mod structure;
mod formation;
mod motion;
mod snap;
mod movement;
mod ball_carrier;
mod throwing;
mod scoring;
mod penalties;
mod clocks;
mod errors;
