import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Segmented } from "./Segmented";

const OPTIONS = [
  { value: 60, label: "1 min" },
  { value: 300, label: "5 min" },
  { value: 3600, label: "1 h" },
];

function Picker() {
  const [value, setValue] = useState(300);
  return <Segmented label="Resolution" options={OPTIONS} value={value} onChange={setValue} />;
}

const checkedLabel = () => screen.getAllByRole("radio").find((r) => r.getAttribute("aria-checked") === "true")?.textContent;

describe("Segmented by keyboard", () => {
  it("is one tab stop, the checked option", () => {
    render(<Picker />);
    expect(screen.getAllByRole("radio").map((r) => r.tabIndex)).toEqual([-1, 0, -1]);
  });

  it("moves the choice and the focus with the arrow keys, wrapping, and Home / End", () => {
    render(<Picker />);
    const group = screen.getByRole("radiogroup", { name: "Resolution" });
    fireEvent.keyDown(group, { key: "ArrowRight" });
    expect(checkedLabel()).toBe("1 h");
    expect(document.activeElement?.textContent).toBe("1 h");
    fireEvent.keyDown(group, { key: "ArrowRight" });
    expect(checkedLabel()).toBe("1 min");
    fireEvent.keyDown(group, { key: "ArrowUp" });
    expect(checkedLabel()).toBe("1 h");
    fireEvent.keyDown(group, { key: "Home" });
    expect(checkedLabel()).toBe("1 min");
    fireEvent.keyDown(group, { key: "End" });
    expect(checkedLabel()).toBe("1 h");
    fireEvent.keyDown(group, { key: "a" });
    expect(checkedLabel()).toBe("1 h");
  });
});
