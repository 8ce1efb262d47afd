//! `replay --svg`: the characters sent per turn, raw against each policy, drawn with
//! plotters' SVG backend (text as SVG `<text>`, so no font is read or needed).
//!
//! Each policy keeps one colour of Paul Tol's colour-blind-safe "bright" scheme (with
//! black), whatever else is drawn, so charts can be compared; our policies are solid
//! lines, the others' dashed, the raw history dotted, and a vertical rule separates
//! conversations replayed one after another.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::FontStyle;
use tool_offload::core::materialize::{count, thousands};

use super::args::Policy;
use super::report::Replayed;
use crate::error::CliError;
use crate::output::Output;

/// How a policy's line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// One of ours (offload, materialize, budget).
    Solid,
    /// Another's, for comparison.
    Dashed,
    /// The raw history, the baseline.
    Dotted,
}

/// The colour and stroke of `policy`: Paul Tol's "bright" scheme and black, one each.
pub fn style(policy: Policy) -> (RGBColor, Stroke) {
    match policy {
        Policy::None => (RGBColor(0, 0, 0), Stroke::Dotted),
        Policy::Offload => (RGBColor(0x44, 0x77, 0xAA), Stroke::Solid),
        Policy::Materialize => (RGBColor(0x22, 0x88, 0x33), Stroke::Solid),
        Policy::Budget => (RGBColor(0xAA, 0x33, 0x77), Stroke::Solid),
        Policy::ClearToolUses => (RGBColor(0xEE, 0x66, 0x77), Stroke::Dashed),
        Policy::ClaudeCode => (RGBColor(0xCC, 0xBB, 0x44), Stroke::Dashed),
        Policy::Headtail => (RGBColor(0x66, 0xCC, 0xEE), Stroke::Dashed),
        Policy::AgentsTrimmer => (RGBColor(0xBB, 0xBB, 0xBB), Stroke::Dashed),
    }
}

/// The legend's words for a policy: its name and whose it is.
fn label(policy: Policy) -> String {
    let whose = match style(policy).1 {
        Stroke::Solid => "ours",
        Stroke::Dashed => "others'",
        Stroke::Dotted => "raw history",
    };
    format!("{} ({whose})", policy.name())
}

/// The colour of the rules between conversations.
const RULE: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// Draw every turn of `replayed`, one after the other, into `path`.
pub fn draw(path: &Path, replayed: &[Replayed]) -> Result<(), CliError> {
    let mut svg = String::new();
    plot(&mut svg, replayed)
        .map_err(|e| CliError::failure(format!("{}: cannot draw: {e}", path.display())))?;
    let mut out = Output::create(Some(path))?;
    out.write(svg.as_bytes())?;
    out.commit()
}

/// A whole number on an axis, with thousands separators; nothing between whole numbers.
fn tick(v: &f64) -> String {
    if v.fract() != 0.0 || *v < 0.0 {
        return String::new();
    }
    thousands(*v as usize)
}

fn plot(svg: &mut String, replayed: &[Replayed]) -> Result<(), Box<dyn std::error::Error>> {
    let Some(first) = replayed.first() else {
        return Err("no conversation to draw".into());
    };
    let turns: usize = replayed.iter().map(|r| r.turns).sum();
    let highest = replayed
        .iter()
        .flat_map(|r| r.runs.iter().flat_map(|run| run.per_turn.iter().copied()))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let root = SVGBackend::with_string(svg, (1040, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let (area, side) = root.split_horizontally(800);
    let mut chart = ChartBuilder::on(&area)
        .caption(
            format!(
                "Characters sent per turn ({}, {})",
                count(replayed.len(), "conversation"),
                count(turns, "turn")
            ),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0.5..turns.max(1) as f64 + 0.5, 0.0..highest * 1.05)?;
    let x_desc = if replayed.len() > 1 {
        "turn (conversations one after another, a grey rule between two)"
    } else {
        "turn"
    };
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("characters sent")
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .disable_mesh()
        .draw()?;
    // Each conversation's turns, from its first turn's x (1 for the first).
    let mut spans = Vec::new();
    let mut start = 0;
    for r in replayed {
        spans.push(start);
        start += r.turns;
    }
    // The lines are written as SVG polylines of their own, after plotters' axes: its
    // backend knows no dash pattern, and would draw each dash as an element.
    let mut lines = String::new();
    let top = highest * 1.05;
    for &at in &spans[1..] {
        let x = at as f64 + 0.5;
        let ends = [
            chart.backend_coord(&(x, 0.0)),
            chart.backend_coord(&(x, top)),
        ];
        polyline(&mut lines, &ends, RULE, 1, Some("4 4"));
    }
    for (k, run) in first.runs.iter().enumerate() {
        let (colour, stroke) = style(run.policy);
        // One line per conversation: none joins the last turn of one to the next's first.
        for (r, &at) in replayed.iter().zip(&spans) {
            let points: Vec<(i32, i32)> = r.runs[k]
                .per_turn
                .iter()
                .enumerate()
                .map(|(i, &v)| chart.backend_coord(&((at + i) as f64 + 1.0, v as f64)))
                .collect();
            polyline(&mut lines, &points, colour, 2, dashes(stroke));
        }
    }
    legend(&side, first.runs.iter().map(|run| run.policy))?;
    let (x0, _) = side.get_base_pixel();
    for (i, run) in first.runs.iter().enumerate() {
        let (colour, stroke) = style(run.policy);
        let y = LEGEND_TOP + 24 * i as i32;
        polyline(
            &mut lines,
            &[(x0 + 8, y), (x0 + 40, y)],
            colour,
            2,
            dashes(stroke),
        );
    }
    root.present()?;
    drop((chart, area, side, root));
    let end = svg.rfind("</svg>").ok_or("no </svg> in plotters' output")?;
    svg.insert_str(end, &lines);
    Ok(())
}

/// Where the legend's first entry is, from the top.
const LEGEND_TOP: i32 = 60;

/// The dash pattern of a stroke, as SVG's `stroke-dasharray`.
fn dashes(stroke: Stroke) -> Option<&'static str> {
    match stroke {
        Stroke::Solid => None,
        Stroke::Dashed => Some("8 5"),
        Stroke::Dotted => Some("2 4"),
    }
}

/// An SVG polyline through `points`, appended to `out`.
fn polyline(
    out: &mut String,
    points: &[(i32, i32)],
    colour: RGBColor,
    width: u32,
    dash: Option<&str>,
) {
    let RGBColor(r, g, b) = colour;
    let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let dash = dash.map_or(String::new(), |d| format!(r#" stroke-dasharray="{d}""#));
    out.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-width=\"{width}\"{dash} points=\"{}\"/>\n",
        points.join(" ")
    ));
}

/// The legend's words, beside the chart: each policy's name (its line sample is drawn
/// with the lines), then what the strokes say.
fn legend<DB: DrawingBackend>(
    side: &DrawingArea<DB, plotters::coord::Shift>,
    policies: impl Iterator<Item = Policy>,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let font = ("sans-serif", 14).into_font();
    let mut y = LEGEND_TOP;
    side.draw(&Text::new(
        "Policies",
        (8, y - 28),
        font.clone().style(FontStyle::Bold),
    ))?;
    for policy in policies {
        side.draw(&Text::new(label(policy), (48, y - 8), font.clone()))?;
        y += 24;
    }
    y += 16;
    for note in [
        "solid: ours (tool-offload)",
        "dashed: others', for comparison",
        "dotted: the raw history",
    ] {
        side.draw(&Text::new(note, (8, y), font.clone()))?;
        y += 20;
    }
    Ok(())
}
