# Debian's Prometheus (BASE: a minbase root filesystem with the package and the user `app`).
# The configuration and rules are mounted at /etc/prometheus; the data lives in /data (owned by `app`).
ARG BASE
FROM ${BASE}
ARG APP_UID=10001
USER ${APP_UID}:${APP_UID}
WORKDIR /data
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/data", "--web.listen-address=:9090", "--web.enable-lifecycle"]
