// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToastProvider, useActionToast, useToast, TOAST_DURATION_MS } from "~/components/toaster";
import { toastIn } from "~/utils/toast";

function Trigger() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast({ title: "Second", description: "newer" })}>
      show
    </button>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("toasts", () => {
  it("show the server toast, one at a time, for 5000 ms", () => {
    vi.useFakeTimers();
    render(
      <ToastProvider serverToast={{ title: "First", description: "from the server" }}>
        <Trigger />
      </ToastProvider>,
    );
    expect(screen.getByText("from the server")).toBeTruthy();
    fireEvent.click(screen.getByText("show"));
    expect(screen.queryByText("from the server")).toBeNull();
    expect(screen.getAllByRole("status")).toHaveLength(1);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 10));
    expect(screen.getByText("newer")).toBeTruthy();
    act(() => vi.advanceTimersByTime(20));
    expect(screen.queryByText("newer")).toBeNull();
  });

  it("F8 focuses the region; the button and a swipe right dismiss", () => {
    render(
      <ToastProvider serverToast={{ title: "Hello" }}>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.keyDown(window, { key: "F8" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Notifications (F8)");
    fireEvent.click(screen.getByLabelText("Dismiss notification"));
    expect(screen.queryByText("Hello")).toBeNull();

    fireEvent.click(screen.getByText("show"));
    const toast = screen.getByRole("status");
    fireEvent.pointerDown(toast, { clientX: 10 });
    fireEvent.pointerUp(toast, { clientX: 40 });
    expect(screen.queryByText("Second")).not.toBeNull();
    fireEvent.pointerDown(toast, { clientX: 10 });
    fireEvent.pointerUp(toast, { clientX: 70 });
    expect(screen.queryByText("Second")).toBeNull();
  });
});

function ActionAnswer({ data }: { data: unknown }) {
  useActionToast(data);
  return null;
}

describe("a toast in action data", () => {
  it("shows once per answer, and nothing for an answer without one", () => {
    const { rerender } = render(
      <ToastProvider serverToast={null}>
        <ActionAnswer data={{ ok: true }} />
      </ToastProvider>,
    );
    expect(screen.queryByTestId("toast")).toBeNull();
    rerender(
      <ToastProvider serverToast={null}>
        <ActionAnswer data={{ toast: { title: "Saved", description: "from the action" } }} />
      </ToastProvider>,
    );
    expect(screen.getByText("from the action")).toBeTruthy();
  });

  it("reads only well-formed toasts", () => {
    expect(toastIn({ toast: { title: "T", type: "success", extra: 1 } })).toEqual({
      title: "T",
      type: "success",
    });
    expect(toastIn({ toast: { description: "no title" } })).toBeNull();
    expect(toastIn(null)).toBeNull();
  });
});
