import { useI18n } from '../i18n/I18nContext.tsx';
import { Button } from '../ui/Button.tsx';
import type { ChunkLoadError } from './chunks.ts';

export function ChunkLoadErrorView({ error }: { error: ChunkLoadError }) {
  const { t } = useI18n();
  return (
    <div className="chunk-error">
      <h1 tabIndex={-1}>{t('error.chunkLoad.heading')}</h1>
      <p>{t(`error.chunkLoad.${error.reason}`)}</p>
      <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
    </div>
  );
}
