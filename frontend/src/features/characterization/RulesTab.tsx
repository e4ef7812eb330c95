import { useState } from "react";
import type { DatasetRules } from "../../api/models";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import { JobProgress } from "../jobs/JobProgress";
import styles from "./Characterization.module.css";
import { useCharacterization, useRules, useRulesSchema, useSaveRules } from "./queries";
import { useCanWrite } from "../workspaces/useRole";
import {
  emptyRule,
  fromDraft,
  problemAt,
  toDraft,
  validateAgainstSchema,
  type ListField,
  type RuleDraft,
  type RulesDraft,
  type RuleSetDraft,
  type SchemaProblem,
} from "./rulesEditor";

type SetName = "request" | "user";

const FIELDS: Record<SetName, { key: ListField; label: string; placeholder: string }[]> = {
  request: [
    { key: "path_prefix", label: "Path starts with", placeholder: "/api/, /search" },
    { key: "extensions", label: "Extensions", placeholder: ".php, .jsp" },
    { key: "methods", label: "Methods", placeholder: "POST, PUT" },
  ],
  user: [
    { key: "path_prefix", label: "Path starts with", placeholder: "/admin/" },
    { key: "clients", label: "Clients (address or CIDR)", placeholder: "10.0.0.0/8" },
    { key: "users", label: "Users (log's user field)", placeholder: "alice, bob" },
    { key: "field_present", label: "Field present", placeholder: "user, referer" },
  ],
};

interface RuleEditorProps {
  set: SetName;
  index: number;
  count: number;
  rule: RuleDraft;
  problems: SchemaProblem[];
  onChange: (rule: RuleDraft) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  readOnly: boolean;
}

function RuleEditor({ set, index, count, rule, problems, onChange, onMove, onRemove, readOnly }: RuleEditorProps) {
  const base = `${set}.rules.${index}`;
  const clsProblem = problemAt(problems, `${base}.cls`);
  return (
    <div className={styles.rule} data-testid={`rule-${set}-${index}`}>
      <div className={styles.ruleHead}>
        <div>
          <TextField label={`Rule ${index + 1}: class`} value={rule.cls} onChange={(e) => onChange({ ...rule, cls: e.target.value })} aria-invalid={clsProblem !== null} disabled={readOnly} />
          {clsProblem !== null && <span className={styles.fieldError}>Class {clsProblem}</span>}
        </div>
        <div className={styles.actions}>
          <Button variant="ghost" size="small" disabled={readOnly || index === 0} onClick={() => onMove(-1)} aria-label={`Move rule ${index + 1} up`}>
            ↑
          </Button>
          <Button variant="ghost" size="small" disabled={readOnly || index === count - 1} onClick={() => onMove(1)} aria-label={`Move rule ${index + 1} down`}>
            ↓
          </Button>
          <Button variant="ghost" size="small" onClick={onRemove} disabled={readOnly} aria-label={`Remove rule ${index + 1}`}>
            Remove
          </Button>
        </div>
      </div>
      <div className={styles.ruleFields}>
        {FIELDS[set].map((f) => (
          <TextField key={f.key} label={f.label} placeholder={f.placeholder} value={rule[f.key]} onChange={(e) => onChange({ ...rule, [f.key]: e.target.value })} disabled={readOnly} />
        ))}
        {set === "request" && (
          <label className={styles.label}>
            Query string
            <select className={styles.select} value={rule.has_query} disabled={readOnly} onChange={(e) => onChange({ ...rule, has_query: e.target.value as RuleDraft["has_query"] })}>
              <option value="any">any</option>
              <option value="yes">has a query string</option>
              <option value="no">no query string</option>
            </select>
          </label>
        )}
      </div>
    </div>
  );
}

const SET_TEXT: Record<SetName, { title: string; subtitle: string }> = {
  request: {
    title: "Request classes",
    subtitle: "Rules are tried in order; the first whose conditions all hold gives the class. Lists match any item; blank conditions are ignored.",
  },
  user: { title: "User classes", subtitle: "Classes of clients (e.g. an office network, logged-in users); each class gets its own workload model." },
};

interface RuleSetEditorProps {
  set: SetName;
  draft: RuleSetDraft;
  problems: SchemaProblem[];
  onChange: (d: RuleSetDraft) => void;
  readOnly: boolean;
}

function RuleSetEditor({ set, draft, problems, onChange, readOnly }: RuleSetEditorProps) {
  const update = (rules: RuleDraft[]) => onChange({ ...draft, rules });
  const move = (i: number, delta: number) => {
    const rules = [...draft.rules];
    const [moved] = rules.splice(i, 1);
    if (moved !== undefined) rules.splice(i + delta, 0, moved);
    update(rules);
  };
  const defaultProblem = problemAt(problems, `${set}.default`);
  return (
    <Card title={SET_TEXT[set].title} subtitle={SET_TEXT[set].subtitle} testId={`ruleset-${set}`}>
      <div className={styles.stack}>
        {draft.rules.map((r, i) => (
          <RuleEditor
            key={i}
            set={set}
            index={i}
            count={draft.rules.length}
            rule={r}
            problems={problems}
            onChange={(rule) => update(draft.rules.map((x, j) => (j === i ? rule : x)))}
            onMove={(delta) => move(i, delta)}
            onRemove={() => update(draft.rules.filter((_, j) => j !== i))}
            readOnly={readOnly}
          />
        ))}
        <div className={styles.ruleHead}>
          <div>
            <TextField label="Otherwise (default class)" value={draft.default} onChange={(e) => onChange({ ...draft, default: e.target.value })} aria-invalid={defaultProblem !== null} disabled={readOnly} />
            {defaultProblem !== null && <span className={styles.fieldError}>Default class {defaultProblem}</span>}
          </div>
          <Button variant="secondary" size="small" onClick={() => update([...draft.rules, emptyRule()])} disabled={readOnly}>
            Add a rule
          </Button>
        </div>
      </div>
    </Card>
  );
}

function SavedState({ rules }: { rules: DatasetRules }) {
  if (rules.is_default) return <span className={styles.muted}>Using the default rules.</span>;
  const who = rules.updated_by === null ? "a former member" : rules.updated_by.name || rules.updated_by.email;
  return (
    <span className={styles.muted}>
      Saved {formatDateTime(rules.updated_at ?? null)} by {who}.
    </span>
  );
}

function Editor({ datasetId, stored, schema }: { datasetId: number; stored: DatasetRules; schema: Record<string, unknown> }) {
  const [draft, setDraft] = useState<RulesDraft>(() => toDraft(stored.rules));
  const [problems, setProblems] = useState<SchemaProblem[]>([]);
  const save = useSaveRules(datasetId);
  const current = useCharacterization(datasetId);
  const job = current.data?.job ?? null;
  const canWrite = useCanWrite();
  const submit = () => {
    const rules = fromDraft(draft);
    const found = validateAgainstSchema(schema, rules);
    setProblems(found);
    if (found.length === 0) save.mutate(rules);
  };
  return (
    <div className={styles.stack} data-testid="rules-tab">
      {!canWrite && (
        <Banner tone="info" title="Read only" testId="rules-read-only">
          Viewers see the rules; editors and owners change them.
        </Banner>
      )}
      <RuleSetEditor set="request" draft={draft.request} problems={problems} onChange={(request) => setDraft({ ...draft, request })} readOnly={!canWrite} />
      <RuleSetEditor set="user" draft={draft.user} problems={problems} onChange={(user) => setDraft({ ...draft, user })} readOnly={!canWrite} />
      {problems.length > 0 && (
        <Banner tone="error" title="Fix these fields before saving" testId="rules-problems">
          <ul>
            {problems.map((p) => (
              <li key={p.path}>
                <code>{p.path}</code> {p.message}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      {save.isError && <ErrorBanner error={save.error} title="The rules were not saved" hint="Correct the field named above and save again." />}
      <Card>
        <div className={styles.toolbar}>
          <SavedState rules={save.data?.rules ?? stored} />
          <Button onClick={submit} disabled={save.isPending || !canWrite} title={canWrite ? undefined : "Viewers cannot change the rules"} data-testid="save-rules">
            {save.isPending ? "Saving…" : "Save and re-characterize"}
          </Button>
        </div>
        {save.isSuccess && job !== null && (
          <div style={{ marginTop: "var(--space-3)" }}>
            <JobProgress job={job} />
          </div>
        )}
      </Card>
    </div>
  );
}

export function RulesTab({ datasetId }: { datasetId: number }) {
  const rules = useRules(datasetId);
  const schema = useRulesSchema();
  if (rules.isPending || schema.isPending) return <Loading label="Loading the classification rules…" />;
  if (rules.isError) return <ErrorBanner error={rules.error} title="Could not load the rules" />;
  if (schema.isError) return <ErrorBanner error={schema.error} title="Could not load the rules schema" />;
  return <Editor datasetId={datasetId} stored={rules.data} schema={schema.data} />;
}
