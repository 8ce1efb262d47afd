//! No damage: code that names secrets, hashes, ids, placeholders and documented
//! examples, in many languages, come out byte for byte.

use super::redact;

/// Code and config that name a password, secret, token or key without holding one: every
/// example of issue 49 first.
const CODE: &[&str] = &[
    // Issue 49.
    r#"api_key = os.environ["API_KEY"]"#,
    "def check_password(password: str) -> bool:",
    "const secret = process.env.JWT_SECRET;",
    "auth_token=get_token(user)",
    "let pwd = std::env::current_dir()?;",
    r#"  "password": null,"#,
    "task-0123456789abcdefghij",
    // Real tool outputs (../shared/corpus): every line the rules on main or a first
    // version of these changed.
    r#"     80→api_key = os.environ["API_KEY"]  # New required variable"#,
    "    329→    const apiKey = loadEnvFile('.env');",
    "    409→const hasApiKey = !!process.env.ANTHROPIC_API_KEY;",
    "     87→const apiKey = process.env.API_KEY!;  // New required variable",
    r#"    206→    env_file.write_text("API_KEY=test-key-12345")"#,
    r#"    397→        "API_KEY": "test-api-key-12345","#,
    r#"    398→        "SERVICE_TOKEN": "test-token-67890","#,
    "    153→        process.env = { ...originalEnv, API_KEY: 'test-key-123' };",
    "    338→    writeFileSync(envFile, 'API_KEY=test-key-123');",
    // Python.
    r#"password = os.getenv("DB_PASSWORD")"#,
    "    return bcrypt.checkpw(password.encode(), stored_hash)",
    "secret_key = settings.SECRET_KEY",
    "token: Optional[str] = None",
    "    self.api_key = api_key",
    "if password == confirm_password:",
    r#"client_secret = config.get("client_secret")"#,
    "password_hash = hashlib.sha256(password.encode()).hexdigest()",
    r#"SECRET_KEY = env("DJANGO_SECRET_KEY", default=None)"#,
    r#"token = request.headers.get("Authorization")"#,
    r#"parser.add_argument("--password", help="the password", required=True)"#,
    "    password: SecretStr",
    "api_key: str = Field(..., alias='apiKey')",
    // JavaScript / TypeScript.
    "const apiKey = config.apiKey || '';",
    "let token = await getToken(user);",
    "export const API_KEY = import.meta.env.VITE_API_KEY;",
    "function login(username: string, password: string): Promise<Token> {",
    "const { password, ...rest } = body;",
    "  headers: { Authorization: `Bearer ${token}` },",
    "  password: z.string().min(8),",
    "const accessToken = localStorage.getItem('accessToken');",
    "    this.secret = secret;",
    "  secretOrKey: jwtConstants.secret,",
    "  \"token\": true,",
    "  token => token.trim(),",
    "type Creds = { apiKey: string; secret?: string };",
    // Rust.
    r#"let password = env::var("DATABASE_PASSWORD").expect("set DATABASE_PASSWORD");"#,
    "pub struct Config { pub api_key: String, pub secret: Option<String> }",
    "fn verify(password: &str, hash: &str) -> bool {",
    "let token = Token::new(&secret_key);",
    "        api_key: args.api_key.clone(),",
    "    secret: SecretString::from(raw),",
    "    let access_token = refresh(&client).await?;",
    // Go.
    r#"password := os.Getenv("DB_PASSWORD")"#,
    "token, err := auth.NewToken(ctx)",
    "\tAPIKey   string `json:\"api_key\"`",
    r#"cfg.Secret = viper.GetString("secret")"#,
    "\tPassword string `yaml:\"password\"`",
    // Java.
    r#"private static final String PASSWORD_KEY = "password";"#,
    r#"String apiKey = System.getenv("API_KEY");"#,
    "        this.secretKey = secretKey;",
    r#"@Value("${jwt.secret}") private String secret;"#,
    "char[] password = passwordField.getPassword();",
    r#"props.put("password", dbPassword);"#,
    // Ruby.
    "password = params[:password]",
    r#"config.secret_key_base = ENV["SECRET_KEY_BASE"]"#,
    "api_key = Rails.application.credentials.api_key",
    "validates :password, length: { minimum: 8 }",
    "token = SecureRandom.hex(32)",
    // Shell.
    "export GITHUB_TOKEN=$(gh auth token)",
    r#"read -s -p "Password: " PASSWORD"#,
    r#"curl -H "Authorization: Bearer $TOKEN" https://api.example.com"#,
    r#"echo "token=${TOKEN}""#,
    r#"PGPASSWORD="$DB_PASSWORD" psql -h localhost"#,
    "docker login -u user --password-stdin < token.txt",
    "AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-}",
    "PWD=/work/main",
    "OLDPWD=/home/ann",
    // YAML / JSON / INI config.
    "password: ${DB_PASSWORD}",
    r#"api_key: "{{ .Values.apiKey }}""#,
    "secret: !vault |",
    "token: <your-token-here>",
    "client_secret: changeme",
    r#"password: "********""#,
    "password_file: /run/secrets/db_password",
    "  secretName: app-tls",
    "      secretKeyRef:",
    "          key: password",
    "auth:\n  token: null",
    r#"  "token_type": "Bearer","#,
    r#"  "max_tokens": 4096,"#,
    r#"  "input_tokens": 1532, "output_tokens": 87,"#,
    "api_key = your_api_key_here",
    "OPENAI_API_KEY=sk-...",
    "password = xxxxxxxx",
    "SECRET_KEY=",
    "secret_length = X25519.secret_length",
    "  public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq0b0bX5jYgXkz9 ann@host",
    r#""primaryKey": "order_id_2024","#,
];

/// Hashes, ids, image data and prose: never a secret.
const DATA: &[&str] = &[
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "Merge: 1a2b3c4 5d6e7f8",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  go.sum",
    r#"      "integrity": "sha512-Vx0vC6Nwj8DeB1ZtqrFYXa2STSbNb3XHSLeUJDMZhFw4jvXvhzvj4DMYj5pUXPI7vhYWZvORYVQeQDo7VW79Qw==","#,
    "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
    r#"  "requestId": "550e8400-e29b-41d4-a716-446655440000","#,
    "x-amz-request-id: 4442587FB7D0A2F9",
    "X-Request-Id: req_011CUxMnmMvrX4ynBKc6N8Y8",
    "trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7",
    r#"<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">"#,
    r#"  "icon_key": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==","#,
    r#"  "cache_token": "sha512-Vx0vC6Nwj8DeB1ZtqrFYXa2STSbNb3XHSLeUJDMZhFw4jvXvhzvj4DMYj5pUXPI7vhYWZvORYVQeQDo7VW79Qw==","#,
    "secret_sha256 = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "task-0123456789abcdefghij started",
    "disk-0123456789abcdefghijklmn",
    "pip install scikit-learn  # sk-learn-compatible-estimator-wrapper",
    "risk-assessment-document-final-version",
    "ASKIAIOSFODNN7EXAMPLEXX",
    "the token was rotated; the password policy requires 12 characters",
    "Enter your password:",
    "git@github.com:org/repo.git",
    "https://example.com/a/b?x=1&page=2",
    "docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
    "mongodb://localhost:27017/app",
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "    Finished `release` profile [optimized] target(s) in 0.12s",
    "Basic usage: tool-offload --help",
    "the server uses HTTP basic authentication over TLS",
    "401: Bearer token required",
    "path = hf_hub_download(repo_id=repo, filename=name)",
    "a key-value store; see key-management.md",
    "npm_config_cache=/home/ann/.npm",
    "SKIP_TESTS=1 SKIPPED_COUNT=3",
    "import dapi from './dapi-client'",
    "at Object.<anonymous> (/app/node_modules/sig=/index.js:1:1)",
    "12:34:56 INFO worker-3:Accepted connection",
    "Error: Assertion failed: AccessKey must be set",
    "kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n  CACHE_SIZE: MTAyNDAwMDA=\n",
    "kind: Secret\nmetadata:\n  name: db\n  namespace: production\n",
    // A Twilio auth token's and an Azure storage key's shapes without their context:
    // an md5 and an ETag (32 hex), an Account SID alone, base64 SHA-512 digests (86
    // and `==`), the flags given a variable or a placeholder.
    "5d41402abc4b2a76b9719d911017c592  hello.txt",
    r#"ETag: "5d41402abc4b2a76b9719d911017c592""#,
    r#"  "account_sid": "AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c", "status": "active","#,
    "AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c 5d41402abc4b2a76b9719d911017c592",
    r#"{"algorithm": "sha512", "value": "m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw=="}"#,
    "y7BXkKn+tU+NvNxBzADIbFKvjXJmS+TUW956MkJTln1IoG6WQOZ0KvmnZFTneiq9hEaZscKHz5OWvppw5lSx4g==",
    "az storage blob list --account-name acct --account-key $AZURE_STORAGE_KEY -c c",
    "az storage blob list --account-name acct --account-key <storage-account-key>",
    "  \"permissions\": \"FULL\",\n  \"value\": \"enabled\"",
    "items:\n- apiVersion: v1\n  data:\n    CACHE_KEY: MTAyNDAwMDBhYmNkZWY=\n  kind: ConfigMap\n- apiVersion: v1\n  kind: Secret\n  type: Opaque",
];

#[test]
fn look_alikes_are_left_byte_for_byte() {
    let mut changed = Vec::new();
    let total = CODE.len() + DATA.len();
    for &text in CODE.iter().chain(DATA) {
        let out = redact(text);
        if out.text != text {
            changed.push(format!("{text}\n  -> {}", out.text));
        }
    }
    println!("look-alikes changed: {} of {total}", changed.len());
    assert!(changed.is_empty(), "{}", changed.join("\n"));
    // And all of them at once, as one output.
    let all = CODE
        .iter()
        .chain(DATA)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(redact(&all).text, all);
}

/// The other side: a literal next to the same names is still a secret.
#[test]
fn literals_beside_code_are_still_secrets() {
    for (line, secret) in [
        ("config: password=hunter2!", "hunter2!"),
        ("DB_PASSWORD=hunter22", "hunter22"),
        ("  password: correcthorse", "correcthorse"),
        (
            r#"  "password": "correct horse battery","#,
            "correct horse battery",
        ),
        (
            r#"api_key = "a8f5f167f44f4964e6c998dee827110c""#,
            "a8f5f167f44f4964e6c998dee827110c",
        ),
        ("psql --password=S3cure!pass", "S3cure!pass"),
        (
            "SECRET_KEY=django-insecure-8f3k2jd9s0x7",
            "django-insecure-8f3k2jd9s0x7",
        ),
        ("export SERVICE_TOKEN=q8Zr3mX1pL0vK7", "q8Zr3mX1pL0vK7"),
        (r#"{\"password\": \"hunter2!\"}"#, "hunter2!"),
        ("let password = \"s3cr3t-pw\";", "s3cr3t-pw"),
        (
            "client_secret := \"Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB\"",
            "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB",
        ),
    ] {
        let out = redact(line);
        assert!(!out.text.contains(secret), "{line} -> {}", out.text);
        assert!(
            out.text.contains("[REDACTED:password]"),
            "{line} -> {}",
            out.text
        );
    }
}
