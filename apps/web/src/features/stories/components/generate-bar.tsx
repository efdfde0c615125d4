import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SparklesIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

/**
 * 'Mixer le son de la vidéo du bas' and 'Générer les Stories', with what generating would do (or what it
 * waits for) announced under the button.
 */
export function GenerateBar({
  mixBottomAudio,
  onMixBottomAudioChange,
  canGenerate,
  generating,
  hint,
  onGenerate,
}: {
  mixBottomAudio: boolean;
  onMixBottomAudioChange: (mix: boolean) => void;
  canGenerate: boolean;
  generating: boolean;
  hint: string;
  onGenerate: () => void;
}) {
  const { t } = useTranslation();
  const mixId = useId();
  const mixHintId = useId();
  const statusId = useId();
  return (
    <div className="mt-4 flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5 md:mt-6 md:flex-row md:items-center md:justify-between">
      <div className="flex items-start gap-3">
        <input
          id={mixId}
          type="checkbox"
          checked={mixBottomAudio}
          onChange={(event) => onMixBottomAudioChange(event.target.checked)}
          aria-describedby={mixHintId}
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-300 accent-brand-600"
        />
        <div>
          <label htmlFor={mixId} className="text-sm font-medium text-slate-900">
            {t('stories.options.mixBottomAudio')}
          </label>
          <p id={mixHintId} className="text-sm text-slate-500">
            {t('stories.options.mixBottomAudioHint')}
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-2 md:items-end">
        <button
          type="button"
          onClick={onGenerate}
          disabled={!canGenerate}
          aria-describedby={statusId}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-brand-500 to-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm shadow-brand-600/20 transition hover:from-brand-600 hover:to-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:from-slate-300 disabled:to-slate-300 disabled:shadow-none"
        >
          {generating ? <Spinner className="h-4 w-4" /> : <SparklesIcon className="h-4 w-4" />}
          {generating ? t('stories.generating') : t('stories.generate')}
        </button>
        <p id={statusId} className="text-xs text-slate-500 md:text-right" aria-live="polite">
          {hint}
        </p>
      </div>
    </div>
  );
}
