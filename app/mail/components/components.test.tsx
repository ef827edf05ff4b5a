import { render } from "@react-email/components";
import { describe, expect, it } from "vitest";
import { DEMO_SHOP_DETAILS } from "~/config/shop-details";
import {
  AddressBlock,
  addressText,
  OrderPageLink,
  OrderSummary,
  orderPageLinkText,
  orderSummaryText,
  ProductGrid,
  renderEmail,
  ShopEmail,
} from ".";

const shop = { ...DEMO_SHOP_DETAILS, processVideoUrl: null };

const summary = {
  lines: [
    {
      name: "Collar Caracola",
      quantity: 2,
      amount: "$19,600.00",
      edition: "Piezas 2 y 3 de 30",
      photo: { url: "https://orodeluna.mx/media/drops/x/caracola-480.webp", alt: "Collar Caracola" },
    },
    { name: "Anillo Marea talla 7", quantity: 1, amount: "$4,500.00", edition: null, photo: null },
  ],
  shipping: { label: "Envío express (1 a 2 días hábiles)", amount: "$350.00" },
  total: "$24,450.00",
  plan: "Pagado a 6 meses sin intereses",
};

describe("the shop's e-mail frame", () => {
  it("names the shop, gives the title as the heading, and ends with the shop's contact", async () => {
    const html = await render(
      <ShopEmail shop={shop} title="¡Gracias por tu compra, Ana!">
        <p>Cuerpo</p>
      </ShopEmail>,
    );
    expect(html).toContain('<html dir="ltr" lang="es-MX">');
    expect(html).toMatch(/<h1[^>]*>¡Gracias por tu compra, Ana!<\/h1>/);
    expect(html).toMatch(/<p[^>]*>Oro de Luna<\/p>/);
    expect(html).toContain('href="mailto:hola@orodeluna.mx"');
    expect(html).toContain('href="https://wa.me/5215512345678"');
    // The colours fall back safely: plain hex in inline styles, fonts ending in ones every client has.
    expect(html).toContain("background-color:#faf6ef");
    expect(html).toContain("font-family:Cormorant Garamond, Georgia, Times New Roman, serif");
  });

  it("escapes what people typed (a name with <script>), in the title, the body and attributes", async () => {
    const name = '<script>alert("x")</script>';
    const html = await render(
      <ShopEmail shop={{ ...shop, name: `Oro "de" <Luna>` }} title={`Hola, ${name}`}>
        <AddressBlock heading="Lo enviaremos a" lines={[name, "68000 Oaxaca"]} />
        <OrderSummary
          summary={{
            ...summary,
            lines: [
              { ...summary.lines[0], name, photo: { url: "https://x/a.webp", alt: name } },
            ] as typeof summary.lines,
          }}
        />
      </ShopEmail>,
    );
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain('alt="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    expect(html).toContain("Oro &quot;de&quot; &lt;Luna&gt;");
  });
});

describe("an order's summary", () => {
  it("shows each piece's photo (alt: its name), name × quantity, edition, amount, the shipping, total and plan", async () => {
    const html = await render(<OrderSummary summary={summary} />);
    expect(html).toContain(
      '<img src="https://orodeluna.mx/media/drops/x/caracola-480.webp" alt="Collar Caracola" width="64" height="64"',
    );
    expect(html).toContain("Collar Caracola × 2");
    expect(html).toContain("Piezas 2 y 3 de 30");
    expect(html).toContain("Anillo Marea talla 7 × 1");
    expect(html).toContain("Envío express (1 a 2 días hábiles)");
    expect(html).toContain("$350.00");
    expect(html).toContain("<strong>$24,450.00 MXN</strong>");
    expect(html).toContain("(IVA incluido)");
    expect(html).toContain("Pagado a 6 meses sin intereses");
    // One image: the piece without a photo has none (no broken image).
    expect(html.match(/<img\b/g)).toHaveLength(1);
  });

  it("without any photo has no photo column", async () => {
    const html = await render(
      <OrderSummary summary={{ ...summary, lines: summary.lines.map((l) => ({ ...l, photo: null })) }} />,
    );
    expect(html).not.toMatch(/<img\b/);
    expect(html).toContain('colSpan="1"');
  });

  it("says the same in the text part, one line a piece", () => {
    expect(orderSummaryText(summary)).toEqual([
      "- Collar Caracola × 2: $19,600.00 (Piezas 2 y 3 de 30)",
      "- Anillo Marea talla 7 × 1: $4,500.00",
      "- Envío express (1 a 2 días hábiles): $350.00",
      "Total: $24,450.00 MXN, IVA incluido",
      "Pagado a 6 meses sin intereses",
    ]);
  });
});

describe("'Ver mi pedido' and the address", () => {
  it("link the buyer's order page, in HTML and text; nothing without an address", async () => {
    const url = "https://orodeluna.mx/mi-pedido/OL-ABCD1234?firma=abc";
    const html = await render(<OrderPageLink url={url} />);
    // The label right inside the link: mail clients and readers take it as the link's name.
    expect(html).toMatch(new RegExp(`<a href="${url.replace(/[?]/g, "\\?")}"[^>]*>Ver mi pedido</a>`));
    expect(orderPageLinkText(url)).toEqual([`Ve tu pedido en cualquier momento (Mi pedido): ${url}`, ""]);
    expect(await render(<OrderPageLink url={null} />)).not.toContain("Ver mi pedido");
    expect(orderPageLinkText(null)).toEqual([]);
  });

  it("an address is its lines under a heading, in HTML and text", async () => {
    const html = await render(
      <AddressBlock heading="Dirección de entrega" lines={["Ana Pérez", "Centro"]} />,
    );
    expect(html).toMatch(/<h2[^>]*>Dirección de entrega<\/h2>/);
    expect(html).toContain("Ana Pérez");
    expect(addressText("Dirección de entrega", ["Ana Pérez", "Centro"])).toEqual([
      "Dirección de entrega:",
      "Ana Pérez",
      "Centro",
      "",
    ]);
    expect(addressText("Dirección de entrega", [])).toEqual([]);
  });
});

describe("pieces of a drop", () => {
  it("two to a row, each photo linked to its page with its name and price", async () => {
    const products = ["Uno", "Dos", "Tres"].map((n) => ({
      name: `Anillo ${n}`,
      price: "$4,800.00",
      url: `https://orodeluna.mx/coleccion/d/producto/${n}`,
      image: n === "Dos" ? null : { url: `https://orodeluna.mx/media/${n}-480.webp`, alt: "" },
    }));
    const html = await render(<ProductGrid products={products} />);
    expect(html.match(/<tr\b/g)).toHaveLength(2);
    expect(html).toContain('<img src="https://orodeluna.mx/media/Uno-480.webp" alt="Anillo Uno"');
    expect(html).toContain('href="https://orodeluna.mx/coleccion/d/producto/Dos"');
    // Each photo inside its piece's link; the piece without one still named and priced.
    expect(html).toMatch(/<a href="https:\/\/orodeluna\.mx\/coleccion\/d\/producto\/Uno"[^>]*>\s*<img/);
    expect(html).toContain("Anillo Dos");
    expect(html.match(/\$4,800\.00/g)).toHaveLength(3);
  });
});

describe("a message", () => {
  it("is its subject, the rendered HTML and the text as written", async () => {
    const message = await renderEmail({
      subject: "Asunto",
      text: "Hola",
      html: (
        <ShopEmail shop={shop} title="Hola">
          <p>Hola</p>
        </ShopEmail>
      ),
      headers: { "List-Unsubscribe": "<https://x/baja>" },
    });
    expect(message.subject).toBe("Asunto");
    expect(message.text).toBe("Hola");
    expect(message.html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(message.headers).toEqual({ "List-Unsubscribe": "<https://x/baja>" });
  });

  it("has no preload links for its images (React adds them for pages)", async () => {
    const message = await renderEmail({
      subject: "Asunto",
      text: "Hola",
      html: (
        <ShopEmail shop={shop} title="Hola">
          <OrderSummary summary={summary} />
        </ShopEmail>
      ),
    });
    expect(message.html).toContain("<img ");
    expect(message.html).not.toContain('rel="preload"');
  });
});
