import type { AnalyticsDay } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import {
  Area,
  Bar,
  ComposedChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useLanguage } from '../../../lib/i18n.ts';
import { formatCompact, formatDay, formatNumber } from '../format.ts';
import { ChartFigure } from './chart-figure.tsx';

const COLORS = {
  followers: '#0f172a',
  views: '#0284c7',
  likes: '#e11d48',
  comments: '#7c3aed',
  shares: '#059669',
};

/** Axis, tooltip and table settings every daily chart shares. */
function useAxes() {
  const { t } = useTranslation();
  const { language, locale } = useLanguage();
  return {
    language,
    /** The table alternative's first column: the day, in full. */
    dateColumn: {
      key: 'date',
      header: t('analytics.charts.date'),
      cell: (day: AnalyticsDay) => formatDay(day.date, locale, true),
    },
    xAxis: (
      <XAxis
        dataKey="date"
        tickFormatter={(date: string) => formatDay(date, locale)}
        tick={{ fontSize: 11, fill: '#475569' }}
        minTickGap={24}
        tickLine={false}
      />
    ),
    yAxis: (
      <YAxis
        width={44}
        tickFormatter={(value: number) => formatCompact(value, language)}
        tick={{ fontSize: 11, fill: '#475569' }}
        tickLine={false}
        axisLine={false}
        allowDecimals={false}
      />
    ),
    tooltip: (
      <Tooltip
        labelFormatter={(date) => (typeof date === 'string' ? formatDay(date, locale, true) : '')}
        formatter={(value) => formatNumber(Number(value), language)}
      />
    ),
  };
}

/** Followers at the end of each day. */
export function FollowersChart({ days }: { days: AnalyticsDay[] }) {
  const { t } = useTranslation();
  const { language, dateColumn, xAxis, yAxis, tooltip } = useAxes();
  const known = days.some((day) => day.followers !== null);
  return (
    <ChartFigure
      testId="chart-followers"
      title={t('analytics.charts.followers')}
      description={t('analytics.charts.followersDescription')}
      rows={days}
      rowKey={(day) => day.date}
      columns={[
        dateColumn,
        {
          key: 'followers',
          header: t('analytics.totals.followers'),
          cell: (day) =>
            day.followers === null
              ? t('analytics.totals.unknown')
              : formatNumber(day.followers, language),
        },
      ]}
    >
      {known ? (
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={days}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            {xAxis}
            {yAxis}
            {tooltip}
            <Line
              type="monotone"
              dataKey="followers"
              name={t('analytics.totals.followers')}
              stroke={COLORS.followers}
              strokeWidth={2}
              dot={days.filter((day) => day.followers !== null).length < 3}
              connectNulls
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      ) : (
        <NoData />
      )}
    </ChartFigure>
  );
}

/** Views gained each day, and the views to date of the videos posted each day. */
export function ViewsChart({ days }: { days: AnalyticsDay[] }) {
  const { t } = useTranslation();
  const { language, dateColumn, xAxis, yAxis, tooltip } = useAxes();
  return (
    <ChartFigure
      testId="chart-views"
      title={t('analytics.charts.views')}
      description={t('analytics.charts.viewsDescription')}
      rows={days}
      rowKey={(day) => day.date}
      columns={[
        dateColumn,
        {
          key: 'views',
          header: t('analytics.charts.gainedViews'),
          cell: (day) => formatNumber(day.views, language),
        },
        {
          key: 'postedVideos',
          header: t('analytics.charts.postedVideos'),
          cell: (day) => formatNumber(day.postedVideos, language),
        },
        {
          key: 'postedVideoViews',
          header: t('analytics.charts.postedVideoViews'),
          cell: (day) => formatNumber(day.postedVideoViews, language),
        },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={days}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          {xAxis}
          {yAxis}
          {tooltip}
          <Legend iconType="square" wrapperStyle={{ fontSize: 12 }} formatter={legendText} />
          <Bar
            dataKey="postedVideoViews"
            name={t('analytics.charts.postedVideoViews')}
            fill="#7dd3fc"
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="views"
            name={t('analytics.charts.gainedViews')}
            stroke={COLORS.views}
            fill={COLORS.views}
            fillOpacity={0.12}
            strokeWidth={2}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** Likes, comments and shares gained each day. */
export function InteractionsChart({ days }: { days: AnalyticsDay[] }) {
  const { t } = useTranslation();
  const { language, dateColumn, xAxis, yAxis, tooltip } = useAxes();
  const series = [
    { key: 'likes', name: t('analytics.totals.likes'), color: COLORS.likes },
    { key: 'comments', name: t('analytics.totals.comments'), color: COLORS.comments },
    { key: 'shares', name: t('analytics.totals.shares'), color: COLORS.shares },
  ] as const;
  return (
    <ChartFigure
      testId="chart-interactions"
      title={t('analytics.charts.interactions')}
      description={t('analytics.charts.interactionsDescription')}
      rows={days}
      rowKey={(day) => day.date}
      columns={[
        dateColumn,
        ...series.map((item) => ({
          key: item.key,
          header: item.name,
          cell: (day: AnalyticsDay) => formatNumber(day[item.key], language),
        })),
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart
          data={days}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          {xAxis}
          {yAxis}
          {tooltip}
          <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} formatter={legendText} />
          {series.map((item) => (
            <Line
              key={item.key}
              type="monotone"
              dataKey={item.key}
              name={item.name}
              stroke={item.color}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** Legend labels in the text colour (a pale series colour would be unreadable as text). */
function legendText(value: string) {
  return <span className="text-slate-700">{value}</span>;
}

function NoData() {
  const { t } = useTranslation();
  return (
    <div className="flex h-full items-center justify-center rounded-lg bg-slate-50 text-sm text-slate-500">
      {t('analytics.charts.noData')}
    </div>
  );
}
