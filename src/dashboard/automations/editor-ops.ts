import { MAX_STEPS, STEP_TYPES, type StepType } from "../../features/automations/steps";
import { type EditorDraft, emptyStep } from "./editor-draft";

/**
 * What the editor's button asked for. Each button is a submit button named `op`: Save, or a change
 * to the list of steps that re-renders the form (nothing is saved) so the editor works without
 * script.
 */
export type EditorOp =
  | { kind: "save" }
  | { kind: "add"; type: StepType }
  | { kind: "remove" | "up" | "down"; index: number };

/** `save`, `add:wait`, `remove:2`, `up:1`, `down:0`; anything else is a save. */
export function readOp(value: unknown): EditorOp {
  const [kind, arg] = typeof value === "string" ? value.split(":", 2) : [];
  if (kind === "add" && (STEP_TYPES as readonly string[]).includes(arg ?? "")) {
    return { kind, type: arg as StepType };
  }
  if ((kind === "remove" || kind === "up" || kind === "down") && /^\d{1,3}$/.test(arg ?? "")) {
    return { kind, index: Number(arg) };
  }
  return { kind: "save" };
}

/** The draft with the op's change to its steps; an index out of range changes nothing. */
export function applyOp(draft: EditorDraft, op: Exclude<EditorOp, { kind: "save" }>): EditorDraft {
  const steps = [...draft.steps];
  if (op.kind === "add") {
    // The API refuses more than MAX_STEPS; the editor does not offer them.
    if (steps.length < MAX_STEPS) steps.push(emptyStep(op.type));
    return { ...draft, steps };
  }
  const { index } = op;
  if (index >= steps.length) return draft;
  if (op.kind === "remove") {
    steps.splice(index, 1);
  } else {
    const other = op.kind === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= steps.length) return draft;
    [steps[index], steps[other]] = [
      steps[other] as (typeof steps)[number],
      steps[index] as (typeof steps)[number],
    ];
  }
  return { ...draft, steps };
}
