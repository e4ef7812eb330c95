import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { addClass, classesOf, removeClass, renameClass, splitIntoClasses, uniqueName } from "./classes";
import { SCENARIO_SCHEMA } from "./scenarioSchema.fixture";
import { parseYaml, setPath, toYaml, type Json, type Path, type Scenario } from "../scenarioDoc";
import { WorkloadSection } from "./WorkloadFields";

vi.setConfig({ testTimeout: 30_000 });

const inline: Scenario = {
  name: "s",
  duration_s: 60,
  workload: { arrivals: { rate_per_s: 2 }, page: { objects: { dist: "constant", value: 3 }, gap_s: { dist: "constant", value: 0.5 } }, service_s: { dist: "constant", value: 0.1 } },
};

describe("class edits on the document", () => {
  it("splits an inline workload into 'default' (everything it had) and a new class", () => {
    const doc = splitIntoClasses(inline);
    expect(doc.workload).toEqual({
      classes: [
        { name: "default", ...(inline.workload as Record<string, Json>) },
        { name: "class 2", arrivals: { rate_per_s: 1 }, service_s: { dist: "exponential", mean: 0.1 } },
      ],
    });
    expect(inline.workload).toHaveProperty("arrivals"); // the original is untouched
  });

  it("adds classes with unique names, a share instead of arrivals when the classes share them", () => {
    expect(uniqueName(["class 2", "class 3"])).toBe("class 4");
    const two = splitIntoClasses(inline);
    expect(classesOf(addClass(two))?.map((c) => c.name)).toEqual(["default", "class 2", "class 3"]);
    const shared: Scenario = { workload: { arrivals: { rate_per_s: 10 }, classes: [{ name: "a", share: 1, service_s: { dist: "constant", value: 1 } }] } };
    expect(classesOf(addClass(shared))?.[1]).toEqual({ name: "class 2", share: 0, service_s: { dist: "exponential", mean: 0.1 } });
  });

  it("renames and removes a class, its admission hardness following it, never the last class", () => {
    const doc: Scenario = { ...splitIntoClasses(inline), admission: { policy: "virtual_queue", hardness: { default: 2, "class 2": 3 } } };
    const renamed = renameClass(doc, 1, "api");
    expect(classesOf(renamed)?.map((c) => c.name)).toEqual(["default", "api"]);
    expect(renamed.admission).toEqual({ policy: "virtual_queue", hardness: { default: 2, api: 3 } });
    const removed = removeClass(renamed, 0);
    expect(classesOf(removed)?.map((c) => c.name)).toEqual(["api"]);
    expect(removed.admission).toEqual({ policy: "virtual_queue", hardness: { api: 3 } });
    expect(removeClass(removed, 0)).toBe(removed);
  });
});

/** The form over a document held in state, with the YAML it serialises to (as the editor shows). */
function Editor({ start }: { start: Scenario }) {
  const [doc, setDoc] = useState(start);
  const onSet = (path: Path, value: Json | undefined) => setDoc((d) => setPath(d, path, value));
  return (
    <>
      <WorkloadSection schema={SCENARIO_SCHEMA} doc={doc} onSet={onSet} error={null} />
      <pre data-testid="yaml">{toYaml(doc)}</pre>
    </>
  );
}

const yamlDoc = (): Scenario => {
  const parsed = parseYaml(screen.getByTestId("yaml").textContent);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.doc;
};

describe("the workload form with classes", () => {
  it("adds, renames, edits and removes classes, the YAML following each edit", () => {
    render(<Editor start={inline} />);
    fireEvent.click(screen.getByTestId("add-class"));
    expect(classesOf(yamlDoc())?.map((c) => c.name)).toEqual(["default", "class 2"]);
    fireEvent.click(screen.getByTestId("add-class"));
    fireEvent.change(screen.getByTestId("class-name-2"), { target: { value: "search" } });
    expect(classesOf(yamlDoc())?.map((c) => c.name)).toEqual(["default", "class 2", "search"]);
    // the new class's own fields: its rate, its pages, and the schema's other class fields
    const search = screen.getByTestId("class-2");
    fireEvent.change(within(search).getByTestId("field-workload.classes.2.arrivals.rate_per_s"), { target: { value: "4.5" } });
    fireEvent.click(within(search).getByTestId("pages-toggle-workload.classes.2"));
    expect(within(search).getByText("Kind")).toBeInTheDocument();
    const third = classesOf(yamlDoc())?.[2];
    expect(third?.arrivals).toEqual({ rate_per_s: 4.5 });
    expect(third?.page).toMatchObject({ objects: { dist: "constant", value: 10 } });
    // the first class kept what the inline workload had
    expect(classesOf(yamlDoc())?.[0]).toMatchObject({ arrivals: { rate_per_s: 2 }, service_s: { dist: "constant", value: 0.1 } });
    fireEvent.click(screen.getByTestId("remove-class-1"));
    expect(classesOf(yamlDoc())?.map((c) => c.name)).toEqual(["default", "search"]);
    expect(screen.queryByTestId("class-2")).toBeNull();
  });

  it("edits classes written in the YAML, shares when they split the workload's arrivals", () => {
    const shared: Scenario = {
      duration_s: 60,
      workload: {
        arrivals: { rate_per_s: 10 },
        classes: [
          { name: "top", share: 0.2, service_s: { dist: "constant", value: 0.005 } },
          { name: "normal", share: 0.8, service_s: { dist: "constant", value: 0.05 } },
        ],
      },
    };
    render(<Editor start={shared} />);
    expect(screen.getByText(/Arrivals shared by the classes/)).toBeInTheDocument();
    expect(screen.queryByTestId("field-workload.classes.0.arrivals.rate_per_s")).toBeNull();
    fireEvent.change(screen.getByTestId("field-workload.classes.0.share"), { target: { value: "0.3" } });
    fireEvent.change(screen.getByTestId("field-workload.classes.1.share"), { target: { value: "0.7" } });
    expect(classesOf(yamlDoc())?.map((c) => c.share)).toEqual([0.3, 0.7]);
    fireEvent.change(screen.getByTestId("field-workload.arrivals.rate_per_s"), { target: { value: "20" } });
    expect(yamlDoc().workload).toMatchObject({ arrivals: { rate_per_s: 20 } });
  });
});

describe("a service time resampled from a dataset", () => {
  it("names the dataset instead of offering an empty list of values", () => {
    const replay: Scenario = { duration_s: 60, workload: { arrivals: { dataset: "3" }, service_s: { dist: "empirical", dataset: "3" } } };
    render(<Editor start={replay} />);
    expect(screen.getByTestId("dist-dataset-workload.service_s")).toHaveTextContent("response times of dataset 3");
    expect(screen.queryByText("Values")).toBeNull();
    expect(screen.getByTestId("arrivals-mode")).toHaveDisplayValue("replay of dataset 3 (YAML)");
  });
});
