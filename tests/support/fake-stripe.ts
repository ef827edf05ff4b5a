import http from "node:http";

/**
 * A local stand-in for Stripe's API (which cannot be reached from here), spoken to by the real
 * SDK over real HTTP. It records every request so tests can check what the SDK sent.
 */
export interface FakeStripe {
  url: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; form: URLSearchParams }[];
  sessions: Map<string, Record<string, unknown>>;
  /**
   * Stripe is down while this is set: `error` answers every request with a 500, `hangup` closes
   * the connection without an answer. The SDK retries both before it gives up.
   */
  outage: "error" | "hangup" | null;
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

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripe["requests"] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  let next = 1;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      const form = new URLSearchParams(body);
      requests.push({ method: req.method ?? "", path, headers: req.headers, form });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${next}` });
        res.end(JSON.stringify(json));
      };
      if (fake.outage === "hangup") return req.socket.destroy();
      if (fake.outage === "error") {
        return send(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = `cs_test_${next++}`;
        const session = {
          id,
          object: "checkout.session",
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          client_reference_id: form.get("client_reference_id"),
          metadata: { order_id: form.get("metadata[order_id]") },
          expires_at: Number(form.get("expires_at")),
          success_url: form.get("success_url"),
          cancel_url: form.get("cancel_url"),
          customer_details: null,
        };
        sessions.set(id, session);
        return send(200, session);
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
      return send(200, session);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    outage: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
