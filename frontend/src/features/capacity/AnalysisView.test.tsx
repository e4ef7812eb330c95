import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { capacityParams, capacityReport, recommendation, stubRecommendations } from "../../test/capacityFixtures";
import { testQueryClient } from "../../test/render";
import { AnalysisView } from "./AnalysisView";
import { slaCurve, slaFigures } from "./slaMath";
import { kneeClass } from "../../test/capacityFixtures";
import { formatDecimal, formatRatePerS } from "../../lib/format";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";

// Each case renders several Recharts charts in jsdom: seconds on a loaded 2-core machine, not a speed check.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  // jsdom implements neither pointer capture nor layout.
  Element.prototype.setPointerCapture = () => undefined;
  if (!("PointerEvent" in globalThis)) {
    // Without it fireEvent.pointer* makes plain Events that drop clientY.
    class PointerEventStub extends MouseEvent {
      pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 0;
      }
    }
    Object.assign(globalThis, { PointerEvent: PointerEventStub });
  }
});

const SERVED_MS = 10_000; // the served list arrives after a debounce and a fetch, slower on a loaded machine
let posted: unknown[] = [];
beforeEach(() => {
  posted = stubRecommendations([recommendation(), recommendation({ id: "power", class_name: "", chart: "power", text: "Throughput per unit of latency peaks at 20.1 req/s." })]);
});
afterEach(() => vi.unstubAllGlobals());

// the power ratio falls with load: the cubic's maximum sits at the lowest load
const POWER = {
  points: [5, 10, 15, 20].map((load) => ({ load_per_s: load, power_per_s2: 100 - 2 * load })),
  coefficients: [0, 0, -2, 100],
  load_range_per_s: [5, 20] as [number, number],
  peak_load_per_s: 5,
  r2: 1,
};

function renderView() {
  return render(
    <QueryClientProvider client={testQueryClient()}>
<MemoryRouter>
      <AnalysisView analysisId={7} report={capacityReport()} params={capacityParams()} chartWidth={640} />
    </MemoryRouter>
</QueryClientProvider>,
  );
}

const rateText = () => screen.getByTestId("sla-max-rate").textContent;
const connText = () => screen.getByTestId("sla-max-conn").textContent;

describe("AnalysisView", () => {
  it("lists the served recommendations with their confidence and evidence links", async () => {
    renderView();
    const card = screen.getByTestId("capacity-recommendations");
    await waitFor(() => expect(card).toHaveTextContent("Keep the site under 20 req/s to hold p95 under 200 ms."), { timeout: SERVED_MS });
    expect(posted[0]).toEqual({ thresholds_s: { all: 0.2 } });
    expect(within(card).getAllByRole("link").map((a) => a.textContent)).toEqual(["Evidence: the knee chart", "Evidence: the power-ratio chart"]);
    expect(card).toHaveTextContent("measured");
    // each recommendation has its Export control, closed until asked
    expect(within(card).getAllByRole("button", { name: "Export" })).toHaveLength(2);
  });


  it("starts at the analysis' threshold with its MaxRate and MaxConn", () => {
    renderView();
    expect(screen.getByTestId("knee-chart")).toBeInTheDocument();
    expect(rateText()).toBe("20 req/s");
    expect(connText()).toBe("4");
    expect(screen.getByTestId("sla-threshold")).toHaveTextContent("200 ms");
    expect(screen.getByTestId("sla-servers-peak")).toHaveTextContent("servers needed: 3");
    expect(screen.getByTestId("sla-servers-growth")).toHaveTextContent("4 servers for 67.5 req/s");
  });

  it("arrow keys on the handle move the threshold and update the panel live", async () => {
    renderView();
    const handle = screen.getByTestId("sla-threshold-handle");
    expect(handle).toHaveAttribute("role", "slider");
    // step 0.05 s (range 0.05 .. 5 s): 0.2 -> 0.35 s, MaxRate 25 req/s, MaxConn 9.5
    fireEvent.keyDown(handle, { key: "ArrowUp" });
    fireEvent.keyDown(handle, { key: "ArrowUp" });
    fireEvent.keyDown(handle, { key: "ArrowUp" });
    expect(handle).toHaveAttribute("aria-valuetext", "350 ms");
    expect(rateText()).toBe("25 req/s");
    expect(connText()).toBe("9.5");
    expect(screen.getByTestId("sla-servers-peak")).toHaveTextContent("servers needed: 2");
    // the served recommendations are asked for at the threshold once the handle rests
    await waitFor(() => expect((posted.at(-1) as { thresholds_s: { all: number } }).thresholds_s.all).toBeCloseTo(0.35, 9), { timeout: SERVED_MS });
  });

  it("dragging the handle sets the threshold from the pointer and the panel follows", () => {
    renderView();
    const handle = screen.getByTestId("sla-threshold-handle");
    const before = Number(handle.getAttribute("aria-valuenow"));
    act(() => {
      fireEvent.pointerDown(handle, { pointerId: 1, clientY: 60 });
      fireEvent.pointerMove(handle, { pointerId: 1, clientY: 40 });
      fireEvent.pointerUp(handle, { pointerId: 1, clientY: 40 });
    });
    const after = Number(handle.getAttribute("aria-valuenow"));
    expect(after).toBeGreaterThan(before);
    const expected = slaFigures(slaCurve(kneeClass().curve), after);
    expect(rateText()).toBe(formatRatePerS(expected.rate_per_s));
    expect(connText()).toBe(formatDecimal(expected.max_conn, 1));
    // Higher on the screen is a higher threshold: the pointer further up gives more.
    act(() => {
      fireEvent.pointerDown(handle, { pointerId: 1, clientY: 40 });
      fireEvent.pointerMove(handle, { pointerId: 1, clientY: 20 });
      fireEvent.pointerUp(handle, { pointerId: 1 });
    });
    expect(Number(handle.getAttribute("aria-valuenow"))).toBeGreaterThan(after);
  });

  it("a stance's Use button sets its threshold; warnings and power ratio are shown", () => {
    renderView();
    const stances = screen.getByRole("list", { name: "Threshold per stance" });
    // strict: latency at 0.8 x 20 = 16 req/s -> 0.16 s on the curve
    expect(within(stances).getByText("160 ms")).toBeInTheDocument();
    fireEvent.click(within(stances).getAllByRole("button", { name: "Use" })[2] as HTMLElement);
    // loose: latency at the breaking point, 35 req/s -> 1 s
    expect(screen.getByTestId("sla-threshold")).toHaveTextContent("1 s");
    expect(rateText()).toBe("35 req/s");
    expect(screen.getByTestId("capacity-warnings")).toHaveTextContent("The log names no servers");
    expect(screen.getByTestId("power-capacity")).toHaveTextContent("20.1 req/s");
  });

  it("shows the reason when there is no power-ratio capacity", () => {
    render(
      <QueryClientProvider client={testQueryClient()}>
<MemoryRouter>
        <AnalysisView
          analysisId={7}
          report={capacityReport({ capacity: null, capacity_reason: "the cubic fit has no maximum inside the observed range" })}
          params={capacityParams()}
          chartWidth={640}
        />
      </MemoryRouter>
</QueryClientProvider>,
    );
    expect(screen.getByTestId("power-capacity")).toHaveTextContent("Not available: the cubic fit has no maximum");
  });

  it("draws the power-ratio windows without the cubic fit or its capacity caption when there is no capacity", () => {
    const renderPower = (available: boolean) =>
      render(
        <QueryClientProvider client={testQueryClient()}>
<MemoryRouter>
          <AnalysisView
            analysisId={7}
            report={capacityReport({
              power: POWER,
              ...(available ? {} : { capacity: null, capacity_reason: "latency does not rise with load" }),
            })}
            params={capacityParams()}
            chartWidth={640}
          />
        </MemoryRouter>
</QueryClientProvider>,
      );
    const figure = () => within(screen.getByTestId("power-capacity")).getByRole("figure");
    const legend = () => within(figure()).getByRole("list", { name: "Series" });
    const shown = renderPower(true);
    expect(legend()).toHaveTextContent("cubic fit");
    expect(figure()).toHaveTextContent("is the power-ratio capacity");
    shown.unmount();

    renderPower(false);
    expect(screen.getByTestId("power-capacity")).toHaveTextContent("Not available: latency does not rise with load");
    expect(legend()).toHaveTextContent("window");
    expect(legend()).not.toHaveTextContent("cubic fit");
    expect(figure()).not.toHaveTextContent("power-ratio capacity");
    expect(figure()).toHaveTextContent("no fit is drawn");
  });
});
