//! `replay --svg`: the characters sent per turn, raw against each policy, drawn with
//! plotters' SVG backend (text as SVG `<text>`, so no font is read or needed).

use std::path::Path;

use plotters::prelude::*;

use super::report::Replayed;
use crate::error::CliError;
use crate::output::Output;

/// A colour per policy, in the order they are replayed.
const COLOURS: [RGBColor; 4] = [
    RGBColor(120, 120, 120),
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
];

/// Draw every turn of `replayed`, one after the other, into `path`.
pub fn draw(path: &Path, replayed: &[Replayed]) -> Result<(), CliError> {
    let mut svg = String::new();
    plot(&mut svg, replayed)
        .map_err(|e| CliError::failure(format!("{}: cannot draw: {e}", path.display())))?;
    let mut out = Output::create(Some(path))?;
    out.write(svg.as_bytes())?;
    out.commit()
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
        .max(1);
    let root = SVGBackend::with_string(svg, (960, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Characters sent per turn ({} conversations)",
                replayed.len()
            ),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(72)
        .build_cartesian_2d(0..turns.max(1), 0..highest)?;
    chart
        .configure_mesh()
        .x_desc("turn (conversations one after another)")
        .y_desc("characters sent")
        .disable_mesh()
        .draw()?;
    for (k, run) in first.runs.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<(usize, u64)> = replayed
            .iter()
            .flat_map(|r| r.runs[k].per_turn.iter().copied())
            .enumerate()
            .collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(run.policy.name())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}
