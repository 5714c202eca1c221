import { messageOf } from '@agentdash/core/present';
import { useState } from 'react';
import { api } from '../data/client';
import type { UsageResponse } from '../data/types';
import { useLiveAnswer } from '../data/use-live-answer';
import { ANALYTICS_RELOAD_MS, useLiveTick } from '../data/use-live-tick';
import { useChartTheme } from '../pages/analytics/chart-theme';
import { TimeByDayCard, TimeByProjectCard } from './WhereTimeWent';

/**
 * Where the time went on the Analytics page: main-thread time (model, tools, waiting for you, idle) per project and
 * per day (the browser's days), for the project chosen there (all when empty). Reads `GET /api/usage`.
 */
export function TimeSpent({ project }: { project: string }) {
  const theme = useChartTheme();
  const [time, setTime] = useState<UsageResponse['time'] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const tick = useLiveTick(ANALYTICS_RELOAD_MS);
  useLiveAnswer(project, tick, {
    ask: (signal) => api.usage(project ? { project } : {}, signal),
    take: (u) => {
      setTime(u.time);
      setError(undefined);
    },
    fail: (e) => setError(messageOf(e)),
  });

  return (
    <>
      {error && <div className="err-msg">Could not load time: {error}</div>}
      <div className="grid-2" data-testid="analytics-time">
        <TimeByProjectCard time={time} testId="analytics-time-projects" />
        <TimeByDayCard
          theme={theme}
          time={time}
          testId="analytics-time-days"
          hint="active hours (idle left out), your time zone"
        />
      </div>
    </>
  );
}
