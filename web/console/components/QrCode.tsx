import { encode } from 'uqr';

/**
 * A QR code drawn as inline SVG from the matrix uqr encodes (no canvas, no innerHTML, nothing the CSP refuses): one
 * path of unit squares with a quiet zone of 4 modules, as scanners expect. `label` names it for screen readers.
 */
export function QrCode({ text, label, size = 220 }: { text: string; label: string; size?: number }) {
  const { data, size: n } = encode(text, { border: 4 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${n} ${n}`}
      shapeRendering="crispEdges"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
