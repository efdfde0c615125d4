import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScheduleFormState } from './form-state.ts';
import { checkboxClass, FieldError } from '../components/form-controls.tsx';

type CommercialContent = ScheduleFormState['commercialContent'];

/**
 * TikTok's commercial content disclosure: a toggle, off by default, revealing 'Your brand' and
 * 'Branded content', with the label TikTok will show. Branded content cannot be private: ticking
 * it while 'Only me' is chosen is refused (`refused`), and says why.
 */
export function CommercialContentField({
  commercialContent,
  onChange,
  error,
  privateChosen,
  refused,
  onRefused,
}: {
  commercialContent: CommercialContent;
  onChange: (commercialContent: CommercialContent) => void;
  error: string | undefined;
  privateChosen: boolean;
  refused: boolean;
  onRefused: (refused: boolean) => void;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const hintId = useId();
  return (
    <div className="rounded-xl ring-1 ring-slate-200">
      <label className="grid cursor-pointer grid-cols-[1fr_auto] gap-x-4 px-4 py-3">
        <span className="text-sm font-medium text-slate-900">
          {t('scheduler.form.commercial.toggle')}
        </span>
        <input
          type="checkbox"
          role="switch"
          aria-label={t('scheduler.form.commercial.toggle')}
          checked={commercialContent.enabled}
          onChange={(event) =>
            onChange(
              event.target.checked
                ? { ...commercialContent, enabled: true }
                : { enabled: false, yourBrand: false, brandedContent: false },
            )
          }
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          className="relative col-start-2 row-span-2 row-start-1 mt-0.5 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:absolute before:left-0.5 before:top-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-brand-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
        />
        <span id={hintId} className="mt-0.5 text-xs text-slate-500">
          {t('scheduler.form.commercial.hint')}
        </span>
      </label>
      {commercialContent.enabled && (
        <LabelChoices
          commercialContent={commercialContent}
          onChange={onChange}
          privateChosen={privateChosen}
          refused={refused}
          onRefused={onRefused}
          error={error}
          errorId={errorId}
        />
      )}
    </div>
  );
}

/** 'Your brand' and 'Branded content', and the label TikTok will show for them. */
function LabelChoices({
  commercialContent,
  onChange,
  privateChosen,
  refused,
  onRefused,
  error,
  errorId,
}: {
  commercialContent: CommercialContent;
  onChange: (commercialContent: CommercialContent) => void;
  privateChosen: boolean;
  refused: boolean;
  onRefused: (refused: boolean) => void;
  error: string | undefined;
  errorId: string;
}) {
  const { t } = useTranslation();
  const refusedId = useId();
  const privateForBranded = t('errors.brandedContentPrivate');
  return (
    <div className="space-y-3 border-t border-slate-100 px-4 py-3">
      <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 text-sm">
        <input
          type="checkbox"
          checked={commercialContent.yourBrand}
          onChange={(event) => onChange({ ...commercialContent, yourBrand: event.target.checked })}
          className={`${checkboxClass} row-span-2 mt-0.5`}
        />
        <span className="font-medium text-slate-900">
          {t('scheduler.form.commercial.yourBrand')}
        </span>
        <span className="col-start-2 text-xs text-slate-500">
          {t('scheduler.form.commercial.yourBrandHint')}
        </span>
      </label>
      <label
        className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 text-sm"
        title={privateChosen ? privateForBranded : undefined}
      >
        <input
          type="checkbox"
          checked={commercialContent.brandedContent}
          onChange={(event) => {
            const brandedContent = event.target.checked;
            // Never change the creator's privacy behind their back: refuse, and say why.
            if (brandedContent && privateChosen) {
              onRefused(true);
              return;
            }
            onRefused(false);
            onChange({ ...commercialContent, brandedContent });
          }}
          aria-describedby={refused && privateChosen ? refusedId : undefined}
          className={`${checkboxClass} row-span-2 mt-0.5`}
        />
        <span className="font-medium text-slate-900">
          {t('scheduler.form.commercial.brandedContent')}
        </span>
        <span className="col-start-2 text-xs text-slate-500">
          {t('scheduler.form.commercial.brandedContentHint')}
        </span>
      </label>
      <p role="status" className="text-sm font-medium text-red-700 empty:hidden">
        {refused && privateChosen && <span id={refusedId}>{privateForBranded}</span>}
      </p>
      {(commercialContent.yourBrand || commercialContent.brandedContent) && (
        <p className="rounded-lg bg-sky-50 px-3 py-2 text-xs text-sky-900">
          {commercialContent.brandedContent
            ? t('scheduler.form.commercial.labelPaid')
            : t('scheduler.form.commercial.labelPromotional')}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
