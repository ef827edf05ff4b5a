import http from "node:http";

/**
 * A local stand-in for Stripe's API (which cannot be reached from here), spoken to by the real
 * SDK over real HTTP. It records every request so tests can check what the SDK sent.
 */
export interface FakeStripe {
  url: string;
  requests: {
    method: string;
    path: string;
    headers: http.IncomingHttpHeaders;
    form: URLSearchParams;
    query: URLSearchParams;
  }[];
  sessions: Map<string, Record<string, unknown>>;
  /** Shipping rates made from sessions' shipping_options[].shipping_rate_data, by id. */
  shippingRates: Map<string, Record<string, unknown>>;
  /** PaymentIntents, each with its latest charge inside (Stripe answers it when asked to expand it). */
  paymentIntents: Map<string, Record<string, unknown>>;
  /** Every refund made (a request repeated with its idempotency key gets the first answer, not a new one). */
  refunds: {
    id: string;
    payment_intent: string;
    amount: number;
    idempotencyKey: string;
    metadata: Record<string, string>;
    status: string;
  }[];
  /**
   * Stripe is down while this is set: `error` answers every request with a 500, `hangup` closes
   * the connection without an answer. The SDK retries both before it gives up.
   */
  outage: "error" | "hangup" | null;
  /** Sessions whose every request fails with a 500 (the SDK retries them before it gives up). */
  failingSessions: Set<string>;
  /**
   * PaymentIntents whose own requests (`/v1/payment_intents/<id>…`: a cancel, a retrieve) fail
   * with a 500; a session expanding one still answers.
   */
  failingIntents: Set<string>;
  /** Every PaymentIntent Stripe cancelled (`POST /v1/payment_intents/<id>/cancel` it accepted), in order. */
  cancelledIntents: string[];
  /** The status a new refund answers with: `succeeded` by default; `pending` or `failed` as a bank may. */
  refundStatus: "succeeded" | "pending" | "failed";
  /** Moves a refund on, as Stripe does later (a pending one succeeds or fails). */
  settleRefund(id: string, status: "succeeded" | "failed"): void;
  close(): Promise<void>;
}

/** Who paid and where to ship, as Stripe's page leaves them in a completed session. */
export const STRIPE_SHOPPER = {
  customer_details: { name: "Ana Pérez", email: "ana@example.mx", phone: "+529511234567" },
  collected_information: {
    shipping_details: {
      name: "Ana Pérez",
      address: {
        line1: "Calle Macedonio Alcalá 401",
        line2: "Centro",
        city: "Oaxaca de Juárez",
        state: "OAX",
        postal_code: "68000",
        country: "MX",
      },
    },
  },
};

/**
 * The shopper pays a session by card, as Stripe's page would: the session completes, paid, with a
 * PaymentIntent whose charge carries the card's fingerprint. Returns the PaymentIntent's id.
 */
export function payByCard(
  fake: FakeStripe,
  sessionId: string,
  payment: {
    amount: number;
    fingerprint: string;
    shopper?: Partial<typeof STRIPE_SHOPPER>;
    /** 'Meses sin intereses': the plan's months the buyer chose on the card's page. */
    installments?: number;
    /** Of the session's shipping_options, the one the buyer chose (Stripe's page selects the first). */
    shippingOption?: number;
    /** The card's kind, as Stripe reports it ('credit' by default, like its test card 4242). */
    funding?: "credit" | "debit" | "prepaid" | "unknown";
    /** When the charge was made (its `created`); left out, the charge says no time. */
    paidAt?: Date;
  },
): string {
  const session = fake.sessions.get(sessionId);
  if (!session) throw new Error(`no session ${sessionId}`);
  const id = `pi_test_${sessionId.replace(/^cs_test_/, "")}`;
  // `amount` is the pieces; the chosen shipping is charged on top, as Stripe's page does.
  const shipping = chooseShipping(session, payment.shippingOption ?? 0);
  const amount = payment.amount + shipping;
  fake.paymentIntents.set(id, {
    id,
    object: "payment_intent",
    amount,
    currency: "mxn",
    status: "succeeded",
    next_action: null,
    latest_charge: {
      id: `ch_test_${sessionId.replace(/^cs_test_/, "")}`,
      object: "charge",
      amount,
      ...(payment.paidAt ? { created: Math.floor(payment.paidAt.getTime() / 1000) } : {}),
      payment_intent: id,
      payment_method_details: {
        type: "card",
        card: {
          brand: "visa",
          last4: "4242",
          funding: payment.funding ?? "credit",
          fingerprint: payment.fingerprint,
          installments: payment.installments
            ? { plan: { count: payment.installments, interval: "month", type: "fixed_count" } }
            : null,
        },
      },
    },
  });
  Object.assign(session, {
    status: "complete",
    payment_status: "paid",
    amount_total: amount,
    currency: "mxn",
    payment_intent: id,
    ...STRIPE_SHOPPER,
    ...payment.shopper,
  });
  return id;
}

/**
 * Selects one of a session's shipping options, as the buyer does on Stripe's page: the session's
 * shipping_cost names its rate and amount, and total_details its amount. Answers what it adds (0
 * for a session without shipping options).
 */
export function chooseShipping(session: Record<string, unknown>, index: number): number {
  const options = (session.shipping_options ?? []) as { shipping_amount: number; shipping_rate: string }[];
  if (options.length === 0) return 0;
  const option = options[index];
  if (!option) throw new Error(`no shipping option ${index}`);
  const subtotal = Number(session.amount_subtotal ?? 0);
  Object.assign(session, {
    shipping_cost: {
      amount_subtotal: option.shipping_amount,
      amount_tax: 0,
      amount_total: option.shipping_amount,
      shipping_rate: option.shipping_rate,
    },
    total_details: { amount_discount: 0, amount_shipping: option.shipping_amount, amount_tax: 0 },
    amount_total: subtotal + option.shipping_amount,
  });
  return option.shipping_amount;
}

/**
 * The shopper chose cash at a store (OXXO): the session completes unpaid, and its PaymentIntent
 * waits with a voucher payable until `expiresAfter` (Stripe's next_action.oxxo_display_details).
 */
export function payByVoucher(fake: FakeStripe, sessionId: string, expiresAfter: Date): string {
  return completeUnpaid(fake, sessionId, () => ({
    type: "oxxo_display_details",
    oxxo_display_details: {
      expires_after: Math.floor(expiresAfter.getTime() / 1000),
      number: "12345678901234657890123456789012",
      hosted_voucher_url: "https://payments.stripe.test/oxxo/voucher",
    },
  }));
}

/**
 * Stripe's page completed unpaid with a delayed method: the session is complete, its PaymentIntent
 * waits with `nextAction` (what the buyer was given to pay with). Returns the PaymentIntent's id.
 */
function completeUnpaid(
  fake: FakeStripe,
  sessionId: string,
  nextAction: (session: Record<string, unknown>) => Record<string, unknown>,
  /** When the buyer chose it: Checkout makes the PaymentIntent then (its `created`). */
  givenAt = new Date(),
): string {
  const session = fake.sessions.get(sessionId);
  if (!session) throw new Error(`no session ${sessionId}`);
  const id = `pi_test_${sessionId.replace(/^cs_test_/, "")}`;
  const action = nextAction(session);
  fake.paymentIntents.set(id, {
    id,
    object: "payment_intent",
    created: Math.floor(givenAt.getTime() / 1000),
    currency: "mxn",
    status: "requires_action",
    latest_charge: null,
    next_action: action,
    payment_method_types: [action.type === "oxxo_display_details" ? "oxxo" : "customer_balance"],
  });
  Object.assign(session, {
    status: "complete",
    payment_status: "unpaid",
    payment_intent: id,
    ...STRIPE_SHOPPER,
  });
  return id;
}

/**
 * The shopper chose a bank transfer (SPEI) at `givenAt` (now by default): the session completes
 * unpaid, its PaymentIntent (made then) waits with the transfer's reference and CLABE (Stripe's
 * next_action.display_bank_transfer_instructions).
 */
export function payByTransfer(fake: FakeStripe, sessionId: string, givenAt = new Date()): string {
  return completeUnpaid(
    fake,
    sessionId,
    (session) => ({
      type: "display_bank_transfer_instructions",
      display_bank_transfer_instructions: {
        type: "mx_bank_transfer",
        reference: "4821733",
        amount_remaining: session.amount_total,
        currency: "mxn",
        hosted_instructions_url: "https://payments.stripe.test/spei/instructions",
        financial_addresses: [
          { type: "spei", spei: { bank_code: "646", bank_name: "STP", clabe: "646180111812345678" } },
        ],
      },
    }),
    givenAt,
  );
}

/**
 * The money for a voucher arrived (`paid`: the store or bank confirmed it) or never will
 * (`failed`: it expired), as Stripe records it before sending async_payment_succeeded or _failed.
 */
export function settleVoucher(fake: FakeStripe, sessionId: string, outcome: "paid" | "failed"): void {
  const session = fake.sessions.get(sessionId);
  if (!session) throw new Error(`no session ${sessionId}`);
  const intent = fake.paymentIntents.get(String(session.payment_intent));
  if (outcome === "paid") {
    Object.assign(session, { payment_status: "paid" });
    if (intent)
      Object.assign(intent, { status: "succeeded", next_action: null, amount: session.amount_total });
  } else if (intent) {
    Object.assign(intent, { status: "requires_payment_method", next_action: null });
  }
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripe["requests"] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const shippingRates = new Map<string, Record<string, unknown>>();
  const paymentIntents = new Map<string, Record<string, unknown>>();
  const refunds: FakeStripe["refunds"] = [];
  const refundsByKey = new Map<string, Record<string, unknown>>();
  const refundObjects = new Map<string, Record<string, unknown>>();
  let next = 1;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const [path = "", search = ""] = (req.url ?? "").split("?");
      const form = new URLSearchParams(body);
      const query = new URLSearchParams(search);
      requests.push({ method: req.method ?? "", path, headers: req.headers, form, query });
      // What to expand, as Stripe reads it: expand[]=a.b (the SDK sends expand[0]=… in the query).
      const expand = [...query.entries(), ...form.entries()]
        .filter(([k]) => k.startsWith("expand"))
        .map(([, v]) => v);
      /** An object with the fields named in `expand` replaced by what they name. */
      const expanded = (object: Record<string, unknown>, prefix = ""): Record<string, unknown> => {
        const out = { ...object };
        const intentId = out.payment_intent;
        if (!prefix && typeof intentId === "string" && expand.some((e) => e.startsWith("payment_intent"))) {
          const intent = paymentIntents.get(intentId);
          if (intent) out.payment_intent = expanded(intent, "payment_intent.");
        }
        const cost = out.shipping_cost as { shipping_rate?: unknown } | null | undefined;
        if (
          !prefix &&
          cost &&
          typeof cost.shipping_rate === "string" &&
          expand.includes("shipping_cost.shipping_rate")
        ) {
          out.shipping_cost = {
            ...cost,
            shipping_rate: shippingRates.get(cost.shipping_rate) ?? cost.shipping_rate,
          };
        }
        const charge = out.latest_charge as { id?: string } | null | undefined;
        if (charge && typeof charge === "object" && !expand.includes(`${prefix}latest_charge`)) {
          out.latest_charge = charge.id; // Stripe sends the id unless asked for the charge
        }
        return out;
      };
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${next}` });
        res.end(JSON.stringify(json));
      };
      if (fake.outage === "hangup") return req.socket.destroy();
      const sessionInPath = /^\/v1\/checkout\/sessions\/([^/]+)/.exec(path)?.[1];
      if (sessionInPath && fake.failingSessions.has(sessionInPath)) {
        return send(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      }
      if (fake.outage === "error") {
        return send(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      }
      const intentInPath = /^\/v1\/payment_intents\/([^/]+)/.exec(path)?.[1];
      if (intentInPath && fake.failingIntents.has(intentInPath)) {
        return send(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = `cs_test_${next++}`;
        // What the line items come to: price × quantity, as Stripe's page adds them up.
        let subtotal = 0;
        for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
          subtotal +=
            Number(form.get(`line_items[${i}][quantity]`)) *
            Number(form.get(`line_items[${i}][price_data][unit_amount]`) ?? 0);
        }
        // shipping_rate_data becomes a ShippingRate of its own (shr_…), named by the session's options.
        const shippingOptions: { shipping_amount: number; shipping_rate: string }[] = [];
        for (let i = 0; form.has(`shipping_options[${i}][shipping_rate_data][display_name]`); i++) {
          const data = (field: string) => form.get(`shipping_options[${i}][shipping_rate_data]${field}`);
          const rate = {
            id: `shr_test_${next++}`,
            object: "shipping_rate",
            type: data("[type]") ?? "fixed_amount",
            display_name: data("[display_name]"),
            fixed_amount: {
              amount: Number(data("[fixed_amount][amount]")),
              currency: data("[fixed_amount][currency]"),
            },
            tax_behavior: data("[tax_behavior]"),
            delivery_estimate: {
              minimum: {
                unit: data("[delivery_estimate][minimum][unit]"),
                value: Number(data("[delivery_estimate][minimum][value]")),
              },
              maximum: {
                unit: data("[delivery_estimate][maximum][unit]"),
                value: Number(data("[delivery_estimate][maximum][value]")),
              },
            },
            metadata: { method: data("[metadata][method]"), label: data("[metadata][label]") },
          };
          shippingRates.set(rate.id, rate);
          shippingOptions.push({ shipping_amount: rate.fixed_amount.amount, shipping_rate: rate.id });
        }
        const session = {
          id,
          object: "checkout.session",
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          client_reference_id: form.get("client_reference_id"),
          // Every metadata[key] the shop sent, as Stripe keeps them.
          metadata: Object.fromEntries(
            [...form.entries()].flatMap(([k, v]) => {
              const key = /^metadata\[(.+)\]$/.exec(k)?.[1];
              return key ? [[key, v]] : [];
            }),
          ),
          payment_method_types: [...form.entries()]
            .filter(([k]) => k.startsWith("allowed_payment_method_types["))
            .map(([, v]) => v),
          expires_at: Number(form.get("expires_at")),
          success_url: form.get("success_url"),
          cancel_url: form.get("cancel_url"),
          customer_details: null,
          amount_subtotal: subtotal,
          amount_total: subtotal,
          currency: "mxn",
          shipping_options: shippingOptions,
          shipping_cost: null,
          total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
        };
        sessions.set(id, session);
        // Stripe's page starts with the first option selected.
        chooseShipping(session, 0);
        return send(200, session);
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        const key = String(req.headers["idempotency-key"] ?? "");
        const repeated = key ? refundsByKey.get(key) : undefined;
        if (repeated) return send(200, repeated);
        const intentId = form.get("payment_intent") ?? "";
        const intent = paymentIntents.get(intentId);
        if (!intent) {
          return send(404, {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: `No such payment_intent: '${intentId}'`,
            },
          });
        }
        // As Stripe's OXXO documentation says: "Refunds / Partial refunds: No / No".
        if ((intent.payment_method_types as string[] | undefined)?.includes("oxxo")) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              message: "OXXO payments cannot be refunded.",
            },
          });
        }
        const amount = Number(form.get("amount") ?? intent.amount);
        // Failed refunds gave nothing back: only the others count against the charge.
        const done = refunds
          .filter((r) => r.payment_intent === intentId && r.status !== "failed")
          .reduce((n, r) => n + r.amount, 0);
        if (done + amount > Number(intent.amount)) {
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: "Charge has already been refunded.",
            },
          });
        }
        const metadata: Record<string, string> = {};
        for (const [k, v] of form.entries()) {
          const m = k.match(/^metadata\[(.+)\]$/);
          if (m?.[1]) metadata[m[1]] = v;
        }
        const refund = {
          id: `re_test_${next++}`,
          object: "refund",
          amount,
          currency: "mxn",
          payment_intent: intentId,
          status: fake.refundStatus,
          failure_reason: fake.refundStatus === "failed" ? "expired_or_canceled_card" : null,
          reason: form.get("reason"),
          metadata,
        };
        refunds.push({
          id: refund.id,
          payment_intent: intentId,
          amount,
          idempotencyKey: key,
          metadata,
          status: refund.status,
        });
        refundObjects.set(refund.id, refund);
        if (key) refundsByKey.set(key, refund);
        return send(200, refund);
      }
      const refundMatch = path.match(/^\/v1\/refunds\/([^/]+)$/);
      if (req.method === "GET" && refundMatch) {
        const refund = refundObjects.get(refundMatch[1] ?? "");
        if (!refund) {
          return send(404, {
            error: { type: "invalid_request_error", code: "resource_missing", message: "No such refund" },
          });
        }
        return send(200, refund);
      }
      const cancelMatch = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/);
      if (req.method === "POST" && cancelMatch) {
        const intent = paymentIntents.get(cancelMatch[1] ?? "");
        if (!intent) {
          return send(404, {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: "No such payment_intent",
            },
          });
        }
        // As Stripe answers: only a PaymentIntent not yet paid (nor cancelled) can be cancelled.
        if (intent.status === "succeeded" || intent.status === "canceled") {
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "payment_intent_unexpected_state",
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
            },
          });
        }
        Object.assign(intent, {
          status: "canceled",
          next_action: null,
          canceled_at: Math.floor(Date.now() / 1000),
          cancellation_reason: form.get("cancellation_reason"),
        });
        fake.cancelledIntents.push(String(intent.id));
        return send(200, expanded(intent));
      }
      const intentMatch = path.match(/^\/v1\/payment_intents\/([^/]+)$/);
      if (req.method === "GET" && intentMatch) {
        const intent = paymentIntents.get(intentMatch[1] ?? "");
        if (!intent) {
          return send(404, {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: "No such payment_intent",
            },
          });
        }
        return send(200, expanded(intent));
      }
      const match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
      const session = match ? sessions.get(match[1] ?? "") : undefined;
      if (!session) {
        // What Stripe answers for an id it does not know (another account, test vs live keys).
        return send(404, {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            param: "session",
            message: `No such checkout.session: '${match?.[1] ?? path}'`,
          },
        });
      }
      if (match?.[2]) {
        if (session.status !== "open") {
          return send(400, { error: { type: "invalid_request_error", message: "Session is not open" } });
        }
        session.status = "expired";
      }
      return send(200, expanded(session));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    shippingRates,
    paymentIntents,
    refunds,
    outage: null,
    failingSessions: new Set(),
    failingIntents: new Set(),
    cancelledIntents: [],
    refundStatus: "succeeded",
    settleRefund(id, status) {
      const refund = refundObjects.get(id);
      if (refund) refund.status = status;
      const listed = refunds.find((r) => r.id === id);
      if (listed) listed.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
