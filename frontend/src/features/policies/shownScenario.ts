/** Which scenario a policy page's form shows: the one of the run shown beside it, so the results and
 * the form never describe different scenarios. Runs are named `<prefix><scenario name>` when started. */
import { getPath, textOf, type Scenario } from "../simulations/scenarioDoc";
import type { ScenarioChoice } from "./usePolicyRuns";

export interface ShownRun {
  name: string;
  scenario: Scenario;
}

/** The name a run of this choice gets when the page starts it. */
export function runNameOf(choice: ScenarioChoice, prefix: string): string {
  return `${prefix}${textOf(getPath(choice.scenario, ["name"]), choice.label)}`;
}

export const SHOWN_KEY = "shown-run";

/** The form's choices and selected key. The user's pick wins; else the choice the shown run was
 * started from (by its name); a shown run no listed choice made (a renamed saved scenario, a removed
 * dataset) becomes a choice of its own, first, so the form shows that run's scenario. */
export function formChoices(choices: ScenarioChoice[], picked: string | null, shown: ShownRun | null, prefix: string): { choices: ScenarioChoice[]; key: string | null } {
  if (picked !== null && choices.some((c) => c.key === picked)) return { choices, key: picked };
  if (shown === null) return { choices, key: choices[0]?.key ?? null };
  const match = choices.find((c) => runNameOf(c, prefix) === shown.name);
  if (match !== undefined) return { choices, key: match.key };
  const label = shown.name.startsWith(prefix) ? shown.name.slice(prefix.length) : shown.name;
  const own: ScenarioChoice = { key: SHOWN_KEY, label: `Shown run: ${label}`, scenario: shown.scenario, description: "The scenario of the run shown beside this form." };
  return { choices: [own, ...choices], key: SHOWN_KEY };
}

/** The runs to look for when the user picked a scenario: its runs' exact names, one per prefix. */
export function pickedRunNames(choice: ScenarioChoice | undefined, prefixes: string[]): (string | null)[] {
  return prefixes.map((p) => (choice === undefined ? null : runNameOf(choice, p)));
}
