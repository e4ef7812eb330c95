import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PartitionView } from "./PartitionView";

describe("PartitionView", () => {
  it("starts from the class' safety factor and answers the sliders live", () => {
    // docs/methods/admission.md's worked example: MaxConn_D(T_D) = 18, MaxConn_D = 26, N = 10, top fraction 0.2 -> K = 5
    render(<PartitionView maxConnSla={18} maxConn={26} chartWidth={500} />);
    expect(screen.getByTestId("partition-safety-value")).toHaveTextContent("0.69");
    expect(screen.getByTestId("partition-k")).toHaveTextContent("5");
    expect(screen.getByTestId("partition-sentence")).toHaveTextContent("= 5: the top class's own share of the 10 servers");
    expect(screen.getByRole("img", { name: "High Set of 5 servers for the top class, Low Set of 5 servers for the others" })).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("partition-servers"), { target: { value: "20" } });
    // ceil(0.2 x 20 + 20 x 0.8 x 0.31) = ceil(4 + 4.96) = 9
    expect(screen.getByTestId("partition-k")).toHaveTextContent("9");
    expect(screen.queryByTestId("partition-warning")).not.toBeInTheDocument();
  });

  it("warns when the mix asks for every server, and clamps K to N - 1", () => {
    render(<PartitionView maxConnSla={18} maxConn={26} chartWidth={500} />);
    fireEvent.change(screen.getByTestId("partition-top"), { target: { value: "0.95" } });
    expect(screen.getByTestId("partition-k")).toHaveTextContent("9");
    expect(screen.getByTestId("partition-warning")).toHaveTextContent("Above 86% top-class traffic the formula asks for all 10 servers");
    expect(screen.getByTestId("partition-sentence")).toHaveTextContent("clamped to 9");
  });
});
