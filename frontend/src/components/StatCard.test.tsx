import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { StatCard } from "./StatCard";

describe("StatCard", () => {
  it("shows a null figure as 'not recorded' with why, never 0", () => {
    render(<StatCard label="Server errors (5xx)" value={null} unit="%" hint="0 responses" why="this log has no status codes" />);
    const card = screen.getByRole("group", { name: "Server errors (5xx)" });
    expect(card).toHaveTextContent("not recorded");
    expect(card).toHaveTextContent("this log has no status codes");
    expect(card).not.toHaveTextContent("0");
    expect(card).not.toHaveTextContent("%");
    expect(card).toHaveAttribute("data-not-recorded", "true");
  });

  it("shows a recorded zero as a zero", () => {
    render(<StatCard label="Server errors (5xx)" value="0.00%" hint="0 responses" why="this log has no status codes" />);
    const card = screen.getByRole("group", { name: "Server errors (5xx)" });
    expect(card).toHaveTextContent("0.00%");
    expect(card).not.toHaveTextContent("not recorded");
    expect(card).not.toHaveAttribute("data-not-recorded");
  });
});
