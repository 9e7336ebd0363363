import type { SurveyKind } from "../../db/schema/surveys";
import { Chart, type ChartData } from "../../ui/charts/chart";
import { SCALE } from "./survey-numbers";
import type { WeekResult } from "./surveys.queries";

/**
 * The survey's score per UTC week, oldest first: the average rating of a CSAT survey on its 1–5
 * scale, the NPS (−100 to 100) of an NPS one. A week without responses has no point.
 */
export function scoreChart(kind: SurveyKind, weeks: readonly WeekResult[]): ChartData {
  const oldestFirst = [...weeks].reverse();
  const csat = kind === "csat";
  return {
    title: csat ? "Average rating per week" : "Net promoter score per week",
    starts: oldestFirst.map((week) => new Date(week.startsAt).toISOString()),
    interval: "week",
    kind: "score",
    domain: csat ? [SCALE.csat.min, SCALE.csat.max] : [-100, 100],
    series: [
      { name: csat ? "Average rating" : "NPS", values: oldestFirst.map((w) => (csat ? w.average : w.nps)) },
    ],
  };
}

export function ScoreChart(props: { kind: SurveyKind; weeks: readonly WeekResult[] }) {
  return <Chart id="score-chart" data={scoreChart(props.kind, props.weeks)} />;
}
