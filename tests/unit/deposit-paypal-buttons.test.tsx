// @vitest-environment happy-dom
// The PayPal Smart Buttons wiring (the deposit flow): order, capture, confirm, and the errors.
import { cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type ButtonProps = {
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
};
const captured = vi.hoisted(() => ({
  props: undefined as ButtonProps | undefined,
  options: undefined as unknown,
}));
vi.mock("@paypal/react-paypal-js", () => ({
  PayPalScriptProvider: ({ options, children }: { options: unknown; children: unknown }) => {
    captured.options = options;
    return children;
  },
  PayPalButtons: (props: ButtonProps) => {
    captured.props = props;
    return null;
  },
}));

import { PayPalDepositButtons } from "~/components/deposit/paypal-buttons";

const calls: Array<{ url: string; body?: string }> = [];
function answer(map: Record<string, { status: number; body: unknown }>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body as string | undefined });
      const reply = map[url] ?? { status: 404, body: "nope" };
      return new Response(
        typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body),
        {
          status: reply.status,
        },
      );
    }),
  );
}

beforeEach(() => {
  calls.length = 0;
  captured.props = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function mount() {
  const onNotice = vi.fn();
  const onDeposited = vi.fn();
  render(
    <PayPalDepositButtons
      clientId="cid"
      amount="1000.00"
      onNotice={onNotice}
      onDeposited={onDeposited}
    />,
  );
  return { onNotice, onDeposited, props: captured.props! };
}

describe("PayPal deposit buttons", () => {
  it("creates the order, captures, confirms and reports the deposit", async () => {
    answer({
      "/paypal/order": { status: 201, body: { id: "ORDER1" } },
      "/paypal/order/ORDER1/capture": { status: 200, body: { status: "COMPLETED" } },
      "/api/confirm-deposit": { status: 200, body: { newDeposit: "1000.00" } },
    });
    const { props, onDeposited, onNotice } = mount();
    expect(captured.options).toMatchObject({ clientId: "cid", currency: "USD", intent: "capture" });
    expect(await props.createOrder()).toBe("ORDER1");
    expect(JSON.parse(calls[0].body!)).toEqual({
      amount: "1000.00",
      currency: "USD",
      intent: "CAPTURE",
    });
    await props.onApprove({ orderID: "ORDER1" });
    expect(calls.map((c) => c.url)).toEqual([
      "/paypal/order",
      "/paypal/order/ORDER1/capture",
      "/api/confirm-deposit",
    ]);
    expect(JSON.parse(calls[2].body!)).toEqual({ orderID: "ORDER1", amount: "1000.00" });
    expect(onDeposited).toHaveBeenCalledOnce();
    expect(onNotice).not.toHaveBeenCalled();
  });

  it("a failed confirmation shows the capture error and reports no deposit", async () => {
    answer({
      "/paypal/order/ORDER2/capture": { status: 502, body: { message: "Failed" } },
    });
    const { props, onDeposited, onNotice } = mount();
    await props.onApprove({ orderID: "ORDER2" });
    expect(onDeposited).not.toHaveBeenCalled();
    expect(onNotice).toHaveBeenCalledWith({
      title: "Error",
      description: "Failed to confirm deposit. Please try again.",
      type: "error",
    });
  });

  it("a 401 says 'Unauthorized' (then goes to sign in)", async () => {
    answer({ "/paypal/order/ORDER3/capture": { status: 401, body: "Unauthorized" } });
    const { props, onNotice } = mount();
    await props.onApprove({ orderID: "ORDER3" });
    expect(onNotice).toHaveBeenCalledWith(expect.objectContaining({ title: "Unauthorized" }));
  });

  it("a refused order creation raises an error for the SDK", async () => {
    answer({ "/paypal/order": { status: 400, body: "Invalid Amount - Minimum deposit is $400." } });
    const { props } = mount();
    await expect(props.createOrder()).rejects.toThrow("400: Invalid Amount");
  });
});
