import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../../components/ui/scroll-region.tsx';

export interface ChartColumn<TRow> {
  key: string;
  header: string;
  cell: (row: TRow) => string;
}

/**
 * A chart with the same numbers as a table: the drawing is for the eye (hidden from assistive
 * technology), the table (behind a disclosure any keyboard opens) for everyone else.
 */
export function ChartFigure<TRow>({
  title,
  description,
  rows,
  rowKey,
  columns,
  children,
  testId,
}: {
  title: string;
  description: string;
  rows: readonly TRow[];
  rowKey: (row: TRow) => string;
  columns: ChartColumn<TRow>[];
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <figure
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <figcaption>
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">{description}</p>
      </figcaption>
      <div className="mt-3 h-56 w-full min-w-0" aria-hidden="true">
        {children}
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer rounded font-medium text-sky-700 hover:text-sky-900">
          {t('analytics.charts.showTable')}
        </summary>
        <ScrollRegion className="mt-2 max-h-72 overflow-auto" label={title}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                {columns.map((column) => (
                  <th key={column.key} scope="col" className="py-1.5 pr-3 font-medium">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)} className="border-b border-slate-100 last:border-0">
                  {columns.map((column, index) =>
                    index === 0 ? (
                      <th key={column.key} scope="row" className="py-1 pr-3 font-normal">
                        {column.cell(row)}
                      </th>
                    ) : (
                      <td key={column.key} className="py-1 pr-3 tabular-nums">
                        {column.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
}
