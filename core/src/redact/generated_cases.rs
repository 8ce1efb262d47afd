//! The generated cases of `generated_tests.rs`: each kind's documented shape, filled
//! with random characters, and the contexts tools print it in.

use crate::test_rng::Rng;

const UPPER_NUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const HEX: &str = "0123456789abcdef";
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PASSWORD: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!%*_.-";

/// One kind: a value in its documented shape, what of it must be gone, and the contexts
/// it is printed in (`{}` is the value).
pub(super) struct Case {
    pub(super) kind: &'static str,
    pub(super) value: String,
    pub(super) secret: String,
    pub(super) contexts: &'static [&'static str],
}

pub(super) fn cases(rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();
    let mut add = |kind, value: String, contexts| {
        out.push(Case {
            kind,
            secret: value.clone(),
            value,
            contexts,
        })
    };
    add(
        "aws-access-key",
        format!("AKIA{}", rng.of(UPPER_NUM, 16)),
        &[
            "AWS_ACCESS_KEY_ID={}",
            "    \"AccessKeyId\": \"{}\",",
            "aws_access_key_id = {}",
        ],
    );
    add(
        "aws-secret-key",
        rng.of(B64, 40),
        &[
            "aws_secret_access_key = {}",
            "AWS_SECRET_ACCESS_KEY={}",
            "        \"SecretAccessKey\": \"{}\",",
        ],
    );
    add(
        "aws-session-token",
        format!("IQoJb3JpZ2luX2Vj{}", rng.of(B64, 320)),
        &[
            "aws_session_token = {}",
            "AWS_SESSION_TOKEN={}",
            "        \"SessionToken\": \"{}\",",
        ],
    );
    add(
        "github-token",
        format!("ghp_{}", rng.of(ALNUM, 36)),
        &[
            "GITHUB_TOKEN={}",
            "Authorization: token {}",
            "remote: https://x-access-token:{}@github.com/org/repo.git",
        ],
    );
    add(
        "github-token",
        format!("github_pat_{}_{}", rng.of(ALNUM, 22), rng.of(ALNUM, 59)),
        &["GH_TOKEN={}", "  \"token\": \"{}\","],
    );
    add(
        "github-token",
        format!("ghs_{}", rng.of(ALNUM, 36)),
        &["installation token: {}", "GITHUB_TOKEN: {}"],
    );
    add(
        "github-token",
        format!("gho_{}", rng.of(ALNUM, 36)),
        &[
            "  oauth_token: {}",
            "{\"access_token\":\"{}\",\"token_type\":\"bearer\"}",
        ],
    );
    add(
        "gitlab-token",
        format!("glpat-{}", rng.of(URLSAFE, 20)),
        &["GITLAB_TOKEN={}", "PRIVATE-TOKEN: {}"],
    );
    add(
        "slack-token",
        format!(
            "xoxb-{}-{}-{}",
            rng.of("0123456789", 12),
            rng.of("0123456789", 13),
            rng.of(ALNUM, 24)
        ),
        &["SLACK_BOT_TOKEN={}", "  \"token\": \"{}\""],
    );
    add(
        "slack-webhook",
        format!(
            "T{}/B{}/{}",
            rng.of(UPPER_NUM, 8),
            rng.of(UPPER_NUM, 10),
            rng.of(ALNUM, 24)
        ),
        &[
            "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/{}",
            "curl -X POST https://hooks.slack.com/services/{} -d '{\"text\":\"hi\"}'",
            "  \"webhook\": \"https://hooks.slack.com/services/{}\"",
        ],
    );
    add(
        "stripe-key",
        format!("sk_live_{}", rng.of(ALNUM, 24)),
        &["STRIPE_SECRET_KEY={}", "stripe.api_key = \"{}\""],
    );
    add(
        "stripe-key",
        format!("rk_live_{}", rng.of(ALNUM, 24)),
        &["STRIPE_RESTRICTED_KEY={}", "  \"secret\": \"{}\","],
    );
    add(
        "stripe-webhook-secret",
        format!("whsec_{}", rng.of(ALNUM, 32)),
        &[
            "STRIPE_WEBHOOK_SECRET={}",
            "Ready! Your webhook signing secret is {} (^C to quit)",
        ],
    );
    add(
        "openai-key",
        format!("sk-proj-{}", rng.of(URLSAFE, 48)),
        &["OPENAI_API_KEY={}", "Authorization: Bearer {}"],
    );
    add(
        "anthropic-key",
        format!("sk-ant-api03-{}AA", rng.of(URLSAFE, 93)),
        &["ANTHROPIC_API_KEY={}", "x-api-key: {}"],
    );
    add(
        "google-api-key",
        format!("AIza{}", rng.of(URLSAFE, 35)),
        &[
            "GOOGLE_API_KEY={}",
            "GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key={} 200",
            "  \"api_key\": \"{}\"",
        ],
    );
    add("azure-storage-key", format!("{}==", rng.of(B64, 86)), &["DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net", "AZURE_STORAGE_KEY={}"]);
    add("azure-sas-signature", format!("{}%3D", rng.of(ALNUM, 43)), &["https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-01-01T00:00:00Z&spr=https&sig={}", "AZURE_SAS=sv=2022-11-02&sp=r&sig={}"]);
    add(
        "azure-client-secret",
        format!(
            "{}{}Q~{}",
            rng.of(ALNUM, 3),
            rng.of("0123456789", 1),
            rng.of(URLSAFE, 34)
        ),
        &["AZURE_CLIENT_SECRET={}", "  \"password\": \"{}\","],
    );
    add(
        "huggingface-token",
        format!("hf_{}", rng.of(LETTERS, 34)),
        &["HF_TOKEN={}", "Authorization: Bearer {}"],
    );
    add(
        "docker-hub-token",
        format!("dckr_pat_{}", rng.of(URLSAFE, 27)),
        &[
            "DOCKERHUB_TOKEN={}",
            "echo {} | docker login -u ann --password-stdin",
        ],
    );
    add(
        "digitalocean-token",
        format!("dop_v1_{}", rng.of(HEX, 64)),
        &["DIGITALOCEAN_TOKEN={}", "doctl auth init -t {}"],
    );
    add(
        "databricks-token",
        format!("dapi{}", rng.of(HEX, 32)),
        &[
            "DATABRICKS_TOKEN={}",
            "token = {}",
            "Authorization: Bearer {}",
        ],
    );
    add(
        "telegram-bot-token",
        format!("{}:AA{}", rng.of("0123456789", 10), rng.of(URLSAFE, 33)),
        &[
            "TELEGRAM_BOT_TOKEN={}",
            "GET https://api.telegram.org/bot{}/getMe 200",
        ],
    );
    add(
        "sentry-dsn",
        rng.of(HEX, 32),
        &[
            "SENTRY_DSN=https://{}@o123456.ingest.sentry.io/4504",
            "  \"dsn\": \"https://{}@o1.ingest.us.sentry.io/1\"",
        ],
    );
    add(
        "bearer-token",
        rng.of(URLSAFE, 40),
        &[
            "Authorization: Bearer {}",
            "curl -H \"Authorization: Bearer {}\" https://api.example.com/v1",
            "> authorization: bearer {}",
        ],
    );
    add(
        "basic-auth",
        rng.of(B64, 24),
        &["Authorization: Basic {}", "-H 'Authorization: Basic {}'"],
    );
    add(
        "connection-string-password",
        rng.of(ALNUM, 16),
        &[
            "redis://:{}@cache:6379/0",
            "MONGO_URL=mongodb+srv://app:{}@cluster0.ab1cd.mongodb.net/db",
            "git clone https://ann:{}@git.example.com/repo.git",
            "DATABASE_URL=postgres://app:{}@db:5432/app",
        ],
    );
    add(
        "twilio-api-key",
        format!("SK{}", rng.of(HEX, 32)),
        &["TWILIO_API_KEY={}", "  \"sid\": \"{}\","],
    );
    add(
        "password",
        rng.of(HEX, 32),
        &["TWILIO_AUTH_TOKEN={}", "  \"auth_token\": \"{}\","],
    );
    add(
        "sendgrid-key",
        format!("SG.{}.{}", rng.of(URLSAFE, 22), rng.of(URLSAFE, 43)),
        &["SENDGRID_API_KEY={}", "  \"apiKey\": \"{}\""],
    );
    add(
        "npm-token",
        format!("npm_{}", rng.of(ALNUM, 36)),
        &["//registry.npmjs.org/:_authToken={}", "NPM_TOKEN={}"],
    );
    add(
        "pypi-token",
        format!("pypi-AgEIcHlwaS5vcmc{}", rng.of(URLSAFE, 70)),
        &["password = {}", "TWINE_PASSWORD={}", "UV_PUBLISH_TOKEN={}"],
    );
    add(
        "shopify-token",
        format!("shpat_{}", rng.of(HEX, 32)),
        &["SHOPIFY_ACCESS_TOKEN={}", "X-Shopify-Access-Token: {}"],
    );
    add(
        "mailgun-key",
        format!("key-{}", rng.of(HEX, 32)),
        &[
            "MAILGUN_API_KEY={}",
            "curl -s --user 'api:{}' https://api.mailgun.net/v3/x/messages",
        ],
    );
    add(
        "jwt",
        format!(
            "eyJhbGciOiJSUzI1NiJ9.eyJ{}.{}",
            rng.of(URLSAFE, 60),
            rng.of(URLSAFE, 86)
        ),
        &["id_token={}", "  \"access_token\": \"{}\","],
    );
    add(
        "private-key",
        format!(
            "-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n",
            rng.of(B64, 200)
        ),
        &["  \"private_key\": \"{}\","],
    );
    add(
        "private-key",
        format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n{}\n-----END OPENSSH PRIVATE KEY-----",
            rng.of(B64, 70),
            rng.of(B64, 70)
        ),
        &["$ cat ~/.ssh/id_ed25519\n{}", "{}\n"],
    );
    add(
        "password",
        rng.of(PASSWORD, 14),
        &["  \"password\": \"{}\",", "password: {}", "DB_PASSWORD={}"],
    );
    add(
        "kubernetes-secret",
        format!("{}==", rng.of(B64, 30)),
        &[
            "apiVersion: v1\nkind: Secret\ndata:\n  tls.key: {}\n  user: YWRtaW4=",
            "apiVersion: v1\ndata:\n  .dockerconfigjson: {}\nkind: Secret\nmetadata:\n  name: regcred",
            "apiVersion: v1\nkind: Secret\ndata:\n  password: {}",
            "items:\n- apiVersion: v1\n  data:\n    api-token: {}\n  kind: Secret\n  metadata:\n    name: api",
        ],
    );
    add(
        "password",
        rng.of(ALNUM, 40),
        &[
            "APP_SECRET_KEY={}",
            "ALGOLIA_API_KEY={}",
            "my_service_token: \"{}\"",
        ],
    );
    // Twilio's auth token beside its Account SID (under a name it is the keyword
    // rule's `password`, above), and Azure's storage key given to a flag or listed.
    add(
        "twilio-auth-token",
        rng.of(HEX, 32),
        &[
            "curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c/Messages.json -u AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c:{}",
            "client = Client(\"AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c\", \"{}\")",
            "const client = require('twilio')('AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c', '{}');",
        ],
    );
    add(
        "azure-storage-key",
        format!("{}==", rng.of(B64, 86)),
        &[
            "az storage blob upload --account-name acct --account-key {} -c c -f a.txt -n a.txt",
            "az storage container list --account-name acct --account-key=\"{}\"",
            "$ctx = New-AzStorageContext -StorageAccountName acct -StorageAccountKey {}",
            "[\n  {\n    \"creationTime\": \"2024-05-14T10:00:01.000000+00:00\",\n    \"keyName\": \"key1\",\n    \"permissions\": \"FULL\",\n    \"value\": \"{}\"\n  }\n]",
            "2024-05-14T10:00:01.000000+00:00\tkey1\tFULL\t{}",
            "key1       FULL           {}",
        ],
    );
    out
}
