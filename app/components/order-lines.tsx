/** An order's pieces and total, as the payment page and the receipt on /success list them. */
export function OrderLines({
  lines,
  total,
  totalTestId,
}: {
  lines: { name: string; quantity: number; lineTotal: string }[];
  total: string;
  totalTestId?: string;
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
      </ul>
      <p className="mt-2 flex justify-between border-t border-ink/20 pt-2 font-medium">
        <span>Total (MXN, IVA incluido)</span>
        <span data-testid={totalTestId}>{total}</span>
      </p>
    </>
  );
}
