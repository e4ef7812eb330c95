import { useEffect, useState } from "react";
import { checkScenario } from "../api";
import { fieldErrorOf, parseYaml, setPath, toYaml, type FieldError, type Json, type Path, type Scenario } from "../scenarioDoc";

export interface ScenarioState {
  doc: Scenario;
  yaml: string;
  /** The YAML text does not parse; the form shows the last document that did. */
  yamlProblem: string | null;
}

export function stateOf(doc: Scenario): ScenarioState {
  return { doc, yaml: toYaml(doc), yamlProblem: null };
}

/** The document, its YAML text and the server's verdict, kept in sync both ways. */
export function useScenarioState(initial: Scenario, workspaceId: number | null = null) {
  const [state, setState] = useState<ScenarioState>(() => stateOf(initial));
  const set = (path: Path, value: Json | undefined) =>
    setState((s) => {
      const doc = setPath(s.doc, path, value);
      return stateOf(doc);
    });
  const setYaml = (text: string) =>
    setState((s) => {
      const parsed = parseYaml(text);
      return parsed.ok ? { doc: parsed.doc, yaml: text, yamlProblem: null } : { doc: s.doc, yaml: text, yamlProblem: parsed.message };
    });
  const replace = (doc: Scenario) => setState(stateOf(doc));
  const check = useServerCheck(state.doc, workspaceId);
  return { state, set, setYaml, replace, check };
}

export type Verdict = { status: "checking" } | { status: "valid" } | { status: "invalid"; error: FieldError };

const CHECK_DELAY_MS = 350;

/** The server's validation of the document, a moment after the last edit. */
function useServerCheck(doc: Scenario, workspaceId: number | null): Verdict {
  const [verdict, setVerdict] = useState<{ doc: Scenario; verdict: Verdict } | null>(null);
  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      checkScenario(doc, workspaceId).then(
        () => live && setVerdict({ doc, verdict: { status: "valid" } }),
        (error: unknown) => live && setVerdict({ doc, verdict: { status: "invalid", error: fieldErrorOf(error) } }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [doc, workspaceId]);
  return verdict !== null && verdict.doc === doc ? verdict.verdict : { status: "checking" };
}
