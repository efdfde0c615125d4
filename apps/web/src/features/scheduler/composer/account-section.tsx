import type { Account } from '@cadence/shared/schemas/account';
import { useTranslation } from 'react-i18next';
import { Section } from '../components/form-controls.tsx';
import { AccountField } from './account-field.tsx';
import { DeliveryField } from './delivery-field.tsx';
import { creatorOptionsNote } from './tiktok-rules.ts';
import { OptionsNote } from './options-note.tsx';
import { TikTokOptions } from './tiktok-options.tsx';
import type { ScheduleFormModel } from './use-schedule-form.ts';

/** The account the posts go to, then what TikTok lets the creator choose for them. */
export function AccountSection({
  form,
  accounts,
  accountsLoading,
}: {
  form: ScheduleFormModel;
  accounts: readonly Account[];
  accountsLoading: boolean;
}) {
  const { t } = useTranslation();
  const { state, accountId, tiktok, update, message } = form;
  const { creator } = tiktok;
  return (
    <Section title={t('scheduler.form.account.section')}>
      <AccountField
        selectId={form.ids.account}
        accounts={accounts}
        accountsLoading={accountsLoading}
        value={state.accountId}
        onChange={(chosen) => form.dispatch({ type: 'selectAccount', accountId: chosen })}
        error={message('accountId')}
        today={form.today.data}
        creator={{ data: creator.data, isLoading: creator.isLoading, error: creator.error }}
      />
      {accountId !== '' && (
        <TikTokOptions
          privacyId={form.ids.privacy}
          creator={tiktok.offered}
          optionsNote={
            <OptionsNote note={creatorOptionsNote(creator.data, tiktok.creatorOptions)} />
          }
          audited={tiktok.audited}
          publicAccount={tiktok.blockedKey === 'scheduler.form.unaudited.publicAccount'}
          inbox={state.delivery === 'inbox'}
          state={state}
          onChange={update}
          onUseUsual={form.usual}
          errors={{
            privacyLevel: message('privacyLevel'),
            commercialContent: message('commercialContent'),
          }}
        />
      )}
      {accountId !== '' && (
        <DeliveryField
          inbox={state.delivery === 'inbox'}
          onChange={(inbox) => update({ delivery: inbox ? 'inbox' : 'direct' })}
        />
      )}
    </Section>
  );
}
