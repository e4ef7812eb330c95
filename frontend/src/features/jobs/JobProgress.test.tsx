import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeJob } from "../../test/fixtures";
import { describeJob, stageLabel } from "./describeJob";
import { JobProgress } from "./JobProgress";

describe("describeJob", () => {
  it("shows stage, ETA and attempts of a running job", () => {
    const view = describeJob(makeJob({ status: "running", progress: 0.426, stage: "parsing", eta_s: 95, attempts: 2 }));
    expect(view).toEqual({
      label: "Parsing log lines",
      fraction: 0.426,
      caption: "about 1 min 35 s left · attempt 2",
      tone: "active",
    });
  });
  it("handles queued, finished and failed jobs", () => {
    expect(describeJob(makeJob({ status: "queued", stage: null }))).toMatchObject({
      label: "Waiting for a worker",
      caption: "Queued",
    });
    expect(describeJob(makeJob({ status: "succeeded", progress: 0.97 }))).toMatchObject({ fraction: 1, tone: "success" });
    expect(describeJob(makeJob({ status: "failed", progress: 0.3 }))).toMatchObject({
      label: "Processing failed",
      caption: "Stopped at 30%",
      tone: "danger",
    });
  });
  it("clamps progress outside 0..1 and names unknown stages readably", () => {
    expect(describeJob(makeJob({ status: "running", progress: 1.7 })).fraction).toBe(1);
    expect(describeJob(makeJob({ status: "running", progress: -1 })).fraction).toBe(0);
    expect(stageLabel("building_index", "running")).toBe("Building index");
  });
});

describe("JobProgress", () => {
  it("is a progressbar with aria-valuenow 0..100 and the stage as its name", () => {
    render(<JobProgress job={makeJob({ status: "running", progress: 0.426, stage: "writing", eta_s: null })} />);
    const bar = screen.getByTestId("job-progress");
    expect(bar).toHaveAttribute("role", "progressbar");
    expect(bar).toHaveAttribute("aria-valuenow", "43");
    expect(bar).toHaveAttribute("aria-valuemin", "0");
    expect(bar).toHaveAttribute("aria-valuemax", "100");
    expect(bar).toHaveAccessibleName("Writing the request table");
    expect(screen.getByText("43%")).toBeInTheDocument();
    expect(screen.getByText("estimating time left…")).toBeInTheDocument();
  });
});
