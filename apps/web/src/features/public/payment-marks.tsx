/**
 * The payment marks as small text marks drawn here (not the companies' logo files): the names a
 * buyer looks for, readable at 24 px high, with no request and no licence to track.
 */
const MARKS = [
  { name: 'Flutterwave', width: 104, fill: '#ffffff', stroke: '#f5a623', color: '#1b1f23', text: 'Flutterwave' },
  { name: 'Visa', width: 56, fill: '#1a1f71', color: '#ffffff', text: 'VISA', italic: true },
  {
    name: 'Mastercard',
    width: 100,
    fill: '#ffffff',
    stroke: '#cbd5e1',
    color: '#1b1f23',
    text: 'mastercard',
    dots: true,
  },
  { name: 'Verve', width: 60, fill: '#00425f', color: '#ffffff', text: 'Verve' },
] as const;

export function PaymentMarks({ className = '' }: { className?: string }) {
  return (
    <ul className={`flex flex-wrap items-center gap-2 ${className}`} aria-label="Payment methods we accept">
      {MARKS.map((m) => {
        const dots = 'dots' in m;
        return (
          <li key={m.name}>
            <svg role="img" aria-label={m.name} width={m.width} height={24} viewBox={`0 0 ${m.width} 24`}>
              <rect
                x={0.5}
                y={0.5}
                width={m.width - 1}
                height={23}
                rx={4}
                fill={m.fill}
                stroke={'stroke' in m ? m.stroke : m.fill}
              />
              {dots && (
                <>
                  <circle cx={12} cy={12} r={6} fill="#eb001b" />
                  <circle cx={19} cy={12} r={6} fill="#f79e1b" fillOpacity={0.9} />
                </>
              )}
              <text
                x={dots ? 29 : m.width / 2}
                y={16.5}
                textAnchor={dots ? 'start' : 'middle'}
                fontSize={12}
                fontWeight={700}
                fontStyle={'italic' in m ? 'italic' : undefined}
                fill={m.color}
              >
                {m.text}
              </text>
            </svg>
          </li>
        );
      })}
    </ul>
  );
}
