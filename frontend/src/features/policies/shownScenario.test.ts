import { describe, expect, it } from "vitest";
import type { Scenario } from "../simulations/scenarioDoc";
import { formChoices, pickedRunNames, runNameOf, SHOWN_KEY } from "./shownScenario";
import type { ScenarioChoice } from "./usePolicyRuns";

const PREFIX = "Class policies · ";
const preset: ScenarioChoice = { key: "preset:class-policies", label: "Preset: four classes, 6 VMs", scenario: { name: "four classes, 6 VMs", duration_s: 300 } };
const dataset: ScenarioChoice = { key: "preset:dataset-1-class_policies", label: "Dataset: elastic", scenario: { name: "apache_combined_elastic.log: hourly loads x13,787", duration_s: 300 } };
const unnamed: ScenarioChoice = { key: "saved:3", label: "Saved: mine", scenario: { duration_s: 60 } };
const CHOICES = [preset, dataset, unnamed];

describe("the form shows the scenario of the shown run", () => {
  it("names runs after the scenario, or the choice's label without a name", () => {
    expect(runNameOf(dataset, PREFIX)).toBe("Class policies · apache_combined_elastic.log: hourly loads x13,787");
    expect(runNameOf(unnamed, PREFIX)).toBe("Class policies · Saved: mine");
  });

  it("selects the dataset's scenario beside the demo's dataset run, not the first preset", () => {
    // The demo workspace's newest comparison is built from the demo dataset; the preset is listed first.
    const shown = { name: runNameOf(dataset, PREFIX), scenario: dataset.scenario };
    expect(formChoices(CHOICES, null, shown, PREFIX)).toEqual({ choices: CHOICES, key: dataset.key });
  });

  it("lists a shown run no choice made as a choice of its own, selected", () => {
    const gone = { name: `${PREFIX}a removed dataset`, scenario: { name: "a removed dataset", duration_s: 10 } as Scenario };
    const { choices, key } = formChoices(CHOICES, null, gone, PREFIX);
    expect(key).toBe(SHOWN_KEY);
    expect(choices[0]).toMatchObject({ key: SHOWN_KEY, label: "Shown run: a removed dataset", scenario: gone.scenario });
    expect(choices.slice(1)).toEqual(CHOICES);
  });

  it("keeps the user's pick, and falls back to the first choice with nothing shown", () => {
    const shown = { name: runNameOf(dataset, PREFIX), scenario: dataset.scenario };
    expect(formChoices(CHOICES, preset.key, shown, PREFIX).key).toBe(preset.key);
    expect(formChoices(CHOICES, "saved:99", null, PREFIX).key).toBe(preset.key);
    expect(formChoices([], null, null, PREFIX).key).toBeNull();
  });

  it("looks for the picked scenario's own runs by their exact names", () => {
    expect(pickedRunNames(preset, ["Virtual queue · ", "No queue · "])).toEqual(["Virtual queue · four classes, 6 VMs", "No queue · four classes, 6 VMs"]);
    expect(pickedRunNames(undefined, ["a", "b"])).toEqual([null, null]);
  });
});
