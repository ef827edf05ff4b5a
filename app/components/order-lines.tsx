/**
 * An order's pieces and total, as the payment page and the receipt on /success list them;
 * `shipping`: its 'Envío' line apart from the pieces (the total includes it), when it has one.
 */
export function OrderLines({
  lines,
  total,
  totalTestId,
  shipping,
}: {
  lines: { name: string; quantity: number; lineTotal: string }[];
  total: string;
  totalTestId?: string;
  shipping?: { label: string; amount: string } | null;
}) {
  return (
    <>
      <ul className="mt-3 divide-y divide-sand">
        {lines.map((line) => (
          <li key={line.name} className="flex justify-between gap-4 py-2">
            <span>
              {line.name} × {line.quantity}
            </span>
            <span>{line.lineTotal}</span>
          </li>
        ))}
        {shipping && (
          <li className="flex justify-between gap-4 py-2" data-testid="shipping-line">
            <span>{shipping.label}</span>
            <span>{shipping.amount}</span>
          </li>
        )}
      </ul>
      <p className="mt-2 flex justify-between border-t border-ink/20 pt-2 font-medium">
        <span>Total (MXN, IVA incluido)</span>
        <span data-testid={totalTestId}>{total}</span>
      </p>
    </>
  );
}
